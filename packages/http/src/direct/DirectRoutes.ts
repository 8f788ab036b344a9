/**
 * The direct purchase surface: `/coin/buy`, `/coin/transfer`, `/stars/buy`, `/premium/buy` (GET and
 * POST, JSON body), the aliases `/ton/buy` and `/ton/transfer`, `/balance` (the funded wallet of a
 * phrase) and `GET /status`, so clients of similar services switch by changing only the base URL; and the
 * wallet road's POST operations, where the buyer's wallet signs and no phrase is taken (`WalletRoutes.ts`).
 * Handlers parse the fields (core's DirectRequests), call the core's DirectPurchases and render the
 * answer; nothing else happens here.
 *
 * `DirectRouteHandlers` needs DirectPurchases (`DirectServices`, over the chain and marketplace of
 * `@resale/world`) and DirectHttpConfig; the server mounts them in `server/ServerLayer.ts`.
 */
import { DirectPurchases } from "@resale/core/direct/DirectPurchases.ts"
import { Throttling } from "@resale/core/throttles/Throttling.ts"
import {
  parsePremium,
  parseStars,
  parseTonTopup,
  parseTransfer,
  parseWalletInfo
} from "@resale/core/direct/DirectRequests.ts"
import { PgDirectPurchaseRecords } from "@resale/store/PgDirectPurchaseRecords.ts"
import { PgThrottles } from "@resale/store/PgThrottles.ts"
import { Effect, Layer } from "effect"
import { HttpRouter } from "effect/http"
import type { KnownRoute } from "../validation/FastApiFallback.ts"
import {
  balanceAnswer,
  premiumAnswer,
  starsAnswer,
  statusAnswer,
  topupAnswer,
  transferAnswer
} from "./DirectAnswers.ts"
import { DirectHttpConfig } from "./DirectConfig.ts"
import { GatedBlockchain } from "./DerivationGate.ts"
import { failureResponse, methodNotAllowed, notFound } from "./DirectErrors.ts"
import { type DirectRoute, type Fields, makeDirectHandler, parsed } from "./DirectHandler.ts"
import { RateLimiter } from "@resale/webkit/RateLimiter.ts"
import { TonPayerAccounts, TonWalletAccounts } from "@resale/ton/PayerAccount.ts"
import { WalletPurchases } from "@resale/core/direct/WalletPurchases.ts"
import { PgWalletQuotes } from "@resale/store/PgWalletQuotes.ts"
import { WALLET_PATHS, walletRoutesOf } from "./WalletRoutes.ts"

const routesOf = (service: DirectPurchases["Service"]): ReadonlyArray<DirectRoute> => {
  const topup: DirectRoute["run"] = (fields: Fields) =>
    parsed(parseTonTopup(fields)).pipe(Effect.flatMap(service.buyTonTopup), Effect.map(topupAnswer))
  const transfer: DirectRoute["run"] = (fields: Fields) =>
    parsed(parseTransfer(fields)).pipe(Effect.flatMap(service.transfer), Effect.map(transferAnswer))
  return [
    {
      path: "/stars/buy",
      endpoint: "stars",
      withBody: true,
      limited: true,
      run: (fields) => parsed(parseStars(fields)).pipe(Effect.flatMap(service.buyStars), Effect.map(starsAnswer))
    },
    {
      path: "/premium/buy",
      endpoint: "premium",
      withBody: true,
      limited: true,
      run: (fields) => parsed(parsePremium(fields)).pipe(Effect.flatMap(service.buyPremium), Effect.map(premiumAnswer))
    },
    { path: "/coin/buy", endpoint: "ton_topup", withBody: true, limited: true, run: topup },
    { path: "/ton/buy", endpoint: "ton_topup", withBody: true, limited: true, run: topup },
    { path: "/coin/transfer", endpoint: "transfer", withBody: true, limited: true, run: transfer },
    { path: "/ton/transfer", endpoint: "transfer", withBody: true, limited: true, run: transfer },
    {
      path: "/balance",
      endpoint: "balance",
      withBody: true,
      limited: true,
      run: (fields) =>
        parsed(parseWalletInfo(fields)).pipe(Effect.flatMap(service.walletInfo), Effect.map(balanceAnswer))
    },
    {
      path: "/status",
      endpoint: "status",
      withBody: false,
      limited: false,
      run: () => Effect.succeed(statusAnswer(service.network))
    }
  ]
}

const DIRECT_PATHS = [
  "/stars/buy",
  "/premium/buy",
  "/coin/buy",
  "/ton/buy",
  "/coin/transfer",
  "/ton/transfer",
  "/balance",
  "/status"
] as const
/** Unknown paths under these answer the direct surface's own 404 (clients parse `{ok, code, message}`). */
const DIRECT_PREFIXES = ["/stars", "/premium", "/coin", "/ton", "/wallet"] as const
const OTHER_METHODS = ["PUT", "PATCH", "DELETE", "OPTIONS"] as const

/** Every method and path served here, for the server's 404/405 answers. */
export const directKnownRoutes: ReadonlyArray<KnownRoute> = [
  ...DIRECT_PATHS.flatMap(
    (path): ReadonlyArray<KnownRoute> => [
      { method: "GET", path },
      { method: "POST", path }
    ]
  ),
  ...WALLET_PATHS.map((path): KnownRoute => ({ method: "POST", path }))
]

/** The routes over DirectPurchases, WalletPurchases (the wallet road, `WalletRoutes.ts`) and DirectHttpConfig. */
export const DirectRouteHandlers = HttpRouter.use((router) =>
  Effect.gen(function* () {
    const service = yield* DirectPurchases
    const wallets = yield* WalletPurchases
    const settings = yield* DirectHttpConfig
    const limiter = yield* RateLimiter.chosen(settings.rateLimit, settings.sharedRateLimit)
    const handler = makeDirectHandler(settings, limiter)
    for (const route of [...routesOf(service), ...walletRoutesOf(wallets, service.network)]) {
      // /status too: bots call it with POST {}.
      yield* router.add("POST", route.path, handler(route))
      const allowed = route.postOnly === true ? "POST" : "GET and POST"
      const refused = route.postOnly === true ? ["GET" as const, ...OTHER_METHODS] : OTHER_METHODS
      if (route.postOnly !== true) yield* router.add("GET", route.path, handler(route))
      for (const method of refused) {
        yield* router.add(
          method,
          route.path,
          failureResponse(methodNotAllowed(method, route.path, allowed), {
            allow: route.postOnly === true ? "POST" : "GET, POST"
          })
        )
      }
    }
    for (const prefix of DIRECT_PREFIXES) {
      for (const method of ["GET", "POST", ...OTHER_METHODS] as const) {
        yield* router.add(method, `${prefix}/*`, failureResponse(notFound))
      }
    }
  })
)

/**
 * The use case over its ports: the record store on the SqlClient, payer descriptions on the chain in
 * context, and that chain with key derivations bounded (`DerivationGate`).
 */
export const DirectServices = Layer.mergeAll(
  DirectPurchases.layer.pipe(
    Layer.provide([PgDirectPurchaseRecords.layer, TonPayerAccounts.layer]),
    Layer.provide(GatedBlockchain)
  ),
  // the wallet road: no phrase, so no key derivation to bound
  WalletPurchases.layer.pipe(Layer.provide([PgWalletQuotes.layer, TonWalletAccounts])),
  // the shared rate limit's counts (DIRECT_RATE_SHARED), on the same database
  Throttling.layer.pipe(Layer.provide(PgThrottles.layer))
)
