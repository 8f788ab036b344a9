/**
 * The Marketplace port on fragment.com's web API (see FragmentTransport for the wire and
 * FragmentSessionPool for the one-purchase-per-session rule). `layer` reads FRAGMENT_* settings;
 * `layerWith` takes options directly (tests, and sandbox mode pointing it at the FragmentSimulator).
 * Both use the `MarketplaceSessions` in context (PostgreSQL: shared by every process) or, without
 * one, an in-memory one that only serializes this process's purchases.
 */
import { Effect, Layer, Option } from "effect"
import {
  Marketplace,
  MarketplaceError,
  type PremiumQuoteRequest,
  type PurchaseKind,
  type StarsQuoteRequest,
  type TonTopupQuoteRequest
} from "@resale/core/ports/Marketplace.ts"
import { MarketplaceSessions } from "@resale/core/ports/MarketplaceSessions.ts"
import { NANOTON_PER_TON } from "@resale/core/money/Nanoton.ts"
import type { FragmentOptions } from "./FragmentConfig.ts"
import { makeFragmentHttp } from "./FragmentHttp.ts"
import { FRAGMENT_STARS_MAX, FRAGMENT_STARS_MIN, PremiumFlow, StarsFlow, TonTopupFlow } from "./FragmentFlows.ts"
import { makeSessionPool } from "./FragmentSessionPool.ts"
import { makeMemorySessions } from "./MemorySessions.ts"

const rejected = (message: string) => new MarketplaceError({ reason: "Rejected", message })

export const makeFragmentMarketplace = Effect.fn("FragmentMarketplace.make")(function* (options: FragmentOptions) {
  const client = yield* makeFragmentHttp(options)
  const shared = yield* Effect.serviceOption(MarketplaceSessions)
  if (Option.isNone(shared)) {
    yield* Effect.logWarning(
      "Fragment purchases are serialized per session in this process only (no shared MarketplaceSessions)"
    )
  }
  const pool = makeSessionPool(options, client, Option.getOrElse(shared, makeMemorySessions))

  const lookupRecipient = Effect.fn("Marketplace.lookupRecipient")(function* (kind: PurchaseKind, username: string) {
    return yield* pool.lookup(kind, username)
  })

  const quoteStars = Effect.fn("Marketplace.quoteStars")(function* (request: StarsQuoteRequest) {
    const { quantity } = request
    if (!Number.isSafeInteger(quantity) || quantity < FRAGMENT_STARS_MIN || quantity > FRAGMENT_STARS_MAX) {
      return yield* rejected(
        `Stars quantity must be a whole number from ${FRAGMENT_STARS_MIN} to ${FRAGMENT_STARS_MAX}`
      )
    }
    return yield* pool.quote(
      StarsFlow,
      request.username,
      { quantity: "" },
      { quantity, payment_method: "ton" },
      request.payer,
      request.batched === true
    )
  })

  const quotePremium = Effect.fn("Marketplace.quotePremium")(function* (request: PremiumQuoteRequest) {
    const { months } = request
    if (months !== 3 && months !== 6 && months !== 12) return yield* rejected("Premium lasts 3, 6 or 12 months")
    return yield* pool.quote(
      PremiumFlow,
      request.username,
      { months },
      { months, payment_method: "ton" },
      request.payer,
      request.batched === true
    )
  })

  const quoteTonTopup = Effect.fn("Marketplace.quoteTonTopup")(function* (request: TonTopupQuoteRequest) {
    const { amount } = request
    if (amount < NANOTON_PER_TON || amount % NANOTON_PER_TON !== 0n) {
      return yield* rejected("Fragment tops up whole TON only, at least 1 TON")
    }
    return yield* pool.quote(
      TonTopupFlow,
      request.username,
      {},
      { amount: String(amount / NANOTON_PER_TON) },
      request.payer
    )
  })

  return Marketplace.of({
    lookupRecipient,
    quoteStars,
    quotePremium,
    quoteTonTopup,
    confirm: pool.confirm,
    cancel: pool.cancel
  })
})

export class FragmentMarketplace {
  /** The port on Fragment with `options` (production: from `@resale/config`; tests and sandbox: the simulator's). */
  static readonly layerWith = (options: FragmentOptions) => Layer.effect(Marketplace, makeFragmentMarketplace(options))
}
