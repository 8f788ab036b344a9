/**
 * The Marketplace port on fragment.com's web API (see FragmentTransport for the wire).
 * `layer` reads FRAGMENT_URL / FRAGMENT_COOKIES / FRAGMENT_TIMEOUT; `layerWith` takes options
 * directly (tests, and sandbox mode pointing it at the FragmentSimulator).
 */
import { Effect, Layer, Semaphore } from "effect"
import {
  Marketplace,
  MarketplaceError,
  type PremiumQuoteRequest,
  type PurchaseKind,
  type StarsQuoteRequest,
  type TonTopupQuoteRequest
} from "@resale/core/ports/Marketplace.ts"
import { NANOTON_PER_TON } from "@resale/core/money/Nanoton.ts"
import { FragmentConfig, type FragmentOptions } from "./FragmentConfig.ts"
import { makeFragmentDelivery } from "./FragmentDelivery.ts"
import {
  flowOf,
  PremiumFlow,
  STARS_MAX,
  STARS_MIN,
  StarsFlow,
  TonTopupFlow
} from "./FragmentFlows.ts"
import { makeFragmentPurchase } from "./FragmentPurchase.ts"
import { makeFragmentTransport } from "./FragmentTransport.ts"

const rejected = (message: string) => new MarketplaceError({ reason: "Rejected", message })

export const makeFragmentMarketplace = Effect.fn("FragmentMarketplace.make")(function*(options: FragmentOptions) {
  const transport = yield* makeFragmentTransport(options)
  const purchase = makeFragmentPurchase(transport)
  const delivery = makeFragmentDelivery(transport)
  // Fragment keeps one page state per cookie session: run one flow step-sequence at a time
  const session = yield* Semaphore.make(1)
  const serial = Semaphore.withPermit(session)

  const lookupRecipient = Effect.fn("Marketplace.lookupRecipient")(function*(kind: PurchaseKind, username: string) {
    return yield* serial(purchase.lookup(flowOf(kind), username))
  })

  const quoteStars = Effect.fn("Marketplace.quoteStars")(function*(request: StarsQuoteRequest) {
    const { quantity } = request
    if (!Number.isSafeInteger(quantity) || quantity < STARS_MIN || quantity > STARS_MAX) {
      return yield* rejected(`Stars quantity must be a whole number from ${STARS_MIN} to ${STARS_MAX}`)
    }
    const quote = yield* serial(
      purchase.quote(StarsFlow, request.username, { quantity: "" }, { quantity, payment_method: "ton" }, request.payer)
    )
    delivery.remember(quote.payment.reqId, quote.memo)
    return quote.payment
  })

  const quotePremium = Effect.fn("Marketplace.quotePremium")(function*(request: PremiumQuoteRequest) {
    const { months } = request
    if (months !== 3 && months !== 6 && months !== 12) return yield* rejected("Premium lasts 3, 6 or 12 months")
    const quote = yield* serial(
      purchase.quote(PremiumFlow, request.username, { months }, { months, payment_method: "ton" }, request.payer)
    )
    delivery.remember(quote.payment.reqId, quote.memo)
    return quote.payment
  })

  const quoteTonTopup = Effect.fn("Marketplace.quoteTonTopup")(function*(request: TonTopupQuoteRequest) {
    const { amount } = request
    if (amount < NANOTON_PER_TON || amount % NANOTON_PER_TON !== 0n) {
      return yield* rejected("Fragment tops up whole TON only, at least 1 TON")
    }
    const quote = yield* serial(
      purchase.quote(TonTopupFlow, request.username, {}, { amount: String(amount / NANOTON_PER_TON) }, request.payer)
    )
    delivery.remember(quote.payment.reqId, quote.memo)
    return quote.payment
  })

  const confirm = Effect.fn("Marketplace.confirm")(function*(request: Parameters<typeof delivery.confirm>[0]) {
    return yield* serial(delivery.confirm(request))
  })

  const cancel = Effect.fn("Marketplace.cancel")(function*(kind: PurchaseKind, reqId: string) {
    yield* serial(purchase.cancel(flowOf(kind), reqId))
    delivery.forget(reqId)
  })

  return Marketplace.of({ lookupRecipient, quoteStars, quotePremium, quoteTonTopup, confirm, cancel })
})

export class FragmentMarketplace {
  /** From configuration: FRAGMENT_URL, FRAGMENT_COOKIES (required), FRAGMENT_TIMEOUT. */
  static readonly layer = Layer.effect(
    Marketplace,
    Effect.gen(function*() {
      return yield* makeFragmentMarketplace(yield* FragmentConfig)
    })
  )

  /** Explicit options, e.g. `FragmentSimulator.start` output in tests and sandbox mode. */
  static readonly layerWith = (options: FragmentOptions) => Layer.effect(Marketplace, makeFragmentMarketplace(options))
}
