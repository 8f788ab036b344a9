/**
 * The wallet road's operations on the direct surface (POST only, same rate limit, same coded errors):
 * quotes for stars, premium and TON top-ups for a TON Connect account, the report of the signed
 * message, and the order's status. Handlers parse (core's WalletRequests), call the core's
 * WalletPurchases and render; a phrase field is refused by the parser before anything else.
 */
import type { DirectPurchaseError } from "@resale/core/direct/DirectPurchaseError.ts"
import {
  parseWalletPremium,
  parseWalletReport,
  parseWalletStars,
  parseWalletStatus,
  parseWalletTopup,
  type WalletQuoteRequest
} from "@resale/core/direct/WalletRequests.ts"
import type { WalletPurchases } from "@resale/core/direct/WalletPurchases.ts"
import type { Fields } from "@resale/core/direct/DirectRequests.ts"
import { Effect } from "effect"
import { type DirectRoute, parsed } from "./DirectHandler.ts"
import { walletQuoteAnswer, walletStatusAnswer } from "./WalletAnswers.ts"

type Network = "mainnet" | "testnet" | "sandbox"

export const WALLET_PATHS = [
  "/stars/quote",
  "/premium/quote",
  "/coin/quote",
  "/ton/quote",
  "/wallet/report",
  "/wallet/status"
] as const

export const walletRoutesOf = (service: WalletPurchases["Service"], network: Network): ReadonlyArray<DirectRoute> => {
  const quote =
    (parse: (fields: Fields) => WalletQuoteRequest | DirectPurchaseError): DirectRoute["run"] =>
    (fields) =>
      parsed(parse(fields)).pipe(
        Effect.flatMap(service.quote),
        Effect.map((q) => walletQuoteAnswer(q, network))
      )
  const topup = quote(parseWalletTopup)
  const common = { withBody: true, limited: true, postOnly: true } as const
  return [
    { path: "/stars/quote", endpoint: "stars", ...common, run: quote(parseWalletStars) },
    { path: "/premium/quote", endpoint: "premium", ...common, run: quote(parseWalletPremium) },
    { path: "/coin/quote", endpoint: "ton_topup", ...common, run: topup },
    { path: "/ton/quote", endpoint: "ton_topup", ...common, run: topup },
    {
      path: "/wallet/report",
      endpoint: "wallet_order",
      ...common,
      run: (fields) =>
        parsed(parseWalletReport(fields)).pipe(
          Effect.flatMap(service.report),
          Effect.map((q) => walletStatusAnswer(q, network))
        )
    },
    {
      path: "/wallet/status",
      endpoint: "wallet_order",
      ...common,
      run: (fields) =>
        parsed(parseWalletStatus(fields)).pipe(
          Effect.flatMap(service.status),
          Effect.map((q) => walletStatusAnswer(q, network))
        )
    }
  ]
}
