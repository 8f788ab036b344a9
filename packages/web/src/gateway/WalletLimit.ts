/**
 * The wallet page's posts limited per client address: each quote opens a Fragment invoice and each
 * sandbox pay spends the faucet, so a script posting without end must meet a limit. The limiter
 * (`WalletPageLimiter`) has the direct surface's settings (`DIRECT_RATE_*`, counted in PostgreSQL when
 * the direct limit is) and is given by the server with the wallet road; the client is the address
 * behind the trusted proxies (`TRUSTED_PROXIES`), as for every other /v2 limit, IPv6 by its /64.
 */
import { clientAddress, limitKey, trustedProxies } from "@resale/webkit/ClientAddress.ts"
import { HttpConfig } from "@resale/webkit/HttpConfig.ts"
import { WalletPageLimiter } from "@resale/webkit/RateLimiter.ts"
import { Effect, Option } from "effect"
import type { HttpServerRequest } from "effect/http"

/** Seconds the caller must wait before its post is taken: 0 when it may post now. */
export type WalletPostWait = (request: HttpServerRequest.HttpServerRequest) => Effect.Effect<number>

// Shared counts live in one table with the direct surface's: the prefix keeps the two budgets apart.
const KEY_PREFIX = "wallet-page "

/** The wait of a wallet post; never a wait without a limiter (a server without the wallet road). */
export const walletPostWait: Effect.Effect<WalletPostWait, never, HttpConfig> = Effect.gen(function* () {
  const config = yield* HttpConfig
  const limiter = Option.getOrUndefined(yield* Effect.serviceOption(WalletPageLimiter))
  const trusted = trustedProxies(config.trustedProxies)
  return (request) =>
    limiter === undefined ? Effect.succeed(0) : limiter.take(KEY_PREFIX + limitKey(clientAddress(request, trusted)))
})
