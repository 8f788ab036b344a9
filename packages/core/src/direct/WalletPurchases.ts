/**
 * Marketplace purchases paid from a wallet the service already holds (the hot wallet that fulfils
 * account orders): no phrase, no key derivation per purchase. The caller resolves the wallet once and
 * passes it; here it is refreshed from the chain (balance, deployed or not) before each purchase.
 *
 * Exactly once per `key` (one per charge of an account order), with the direct surface's payment code
 * (`MarketplacePurchase`, `DirectPayment`): the key's record is claimed first; a finished one answers
 * its stored result whenever the key comes back (never a second payment), a failed one (nothing paid)
 * runs again, an open one is looked up on chain and with the marketplace before anything else. A
 * different request under a finished key is refused. The outcome is typed: what the order should do.
 */
import { type Delivery, deliveryOf } from "./DeliveryEvidence.ts"
import { Context, Duration, Effect, Layer, Option } from "effect"
import { Blockchain, type Wallet } from "../ports/Blockchain.ts"
import { DirectPurchaseRecords, type DirectPurchaseRecord } from "../ports/DirectPurchaseRecords.ts"
import type { PremiumMonths } from "../orders/Order.ts"
import { isTransientReason, Marketplace, type PayerAccount } from "../ports/Marketplace.ts"
import { sha256Hex } from "../Secrets.ts"
import { makeOrderIds } from "./DirectOrderIds.ts"
import type { DirectPurchaseError } from "./DirectPurchaseError.ts"
import { makeDirectReconciler } from "./DirectReconciler.ts"
import { DirectSettings } from "./DirectSettings.ts"
import { makeMarketplacePurchase } from "./MarketplacePurchase.ts"
import { PayerAccounts } from "./PayerAccounts.ts"

export type WalletPurchase = {
  /** Stable per charge across attempts and restarts: the payment's exactly-once key. */
  readonly key: string
  readonly username: string
} & (
  | { readonly kind: "stars"; readonly units: number }
  | { readonly kind: "premium"; readonly units: PremiumMonths }
)

/** What the purchase ended in, and so what the order does next. */
export type PurchaseOutcome =
  /**
   * Paid once and settled: the transaction and the marketplace's `Ref#`. `delivery` "paid": settled on
   * the order's own payment evidence (`deliveryNote`), the marketplace never confirmed its delivery.
   */
  | {
    readonly _tag: "Delivered"
    readonly txHash: string
    readonly ref: string | null
    readonly delivery: Delivery
    readonly deliveryNote: string | null
  }
  /** Nothing left the wallet. `retryable`: the network, the marketplace's outage or the wallet's funds may change. */
  | { readonly _tag: "NotPaid"; readonly retryable: boolean; readonly reason: string; readonly message: string }
  /** This key (or the wallet) has a payment in flight elsewhere: look again soon, nothing decided. */
  | { readonly _tag: "InFlight"; readonly message: string }
  /** Money may have left, or did, and delivery is not confirmed: never refund on this ground. */
  | {
    readonly _tag: "PaidUnconfirmed"
    readonly message: string
    readonly ref: string | null
    readonly txHash: string | null
    readonly state: string
  }

const describe = (error: DirectPurchaseError) =>
  `${error.reason}${error.marketplaceReason === undefined ? "" : ` (${error.marketplaceReason})`}: ${error.message}`

/** A failure of the shared payment code as an outcome; `record` is the key's record afterwards, if any. */
export const outcomeOf = (error: DirectPurchaseError, record: Option.Option<DirectPurchaseRecord>): PurchaseOutcome => {
  const open = (message: string): PurchaseOutcome => ({
    _tag: "PaidUnconfirmed",
    message,
    ref: Option.match(record, { onNone: () => null, onSome: (r) => r.ref }),
    txHash: Option.match(record, { onNone: () => null, onSome: (r) => r.txHash }),
    state: Option.match(record, { onNone: () => "unknown", onSome: (r) => r.state })
  })
  const text = describe(error)
  if (error.outcome === "Paid" || error.outcome === "Unknown") return open(text)
  const notPaid = (retryable: boolean): PurchaseOutcome => ({ _tag: "NotPaid", retryable, reason: error.reason, message: text })
  switch (error.reason) {
    case "OrderPending":
    case "ServiceBusy":
      // The key's own record left open (not just running) means money may have left.
      return Option.isSome(record) && record.value.state === "unknown"
        ? open(`${record.value.errorReason ?? "Unknown"}: ${record.value.errorMessage ?? "payment outcome open"}`)
        : { _tag: "InFlight", message: text }
    case "OrderIdReused":
      // Only a finished (paid) record answers this: never pay again, an operator looks at it.
      return open(text)
    case "MarketplaceRejected":
      // A marketplace outage (5xx, rate limit, malformed answer, anti-bot block) passes; a refusal does not.
      return notPaid(error.marketplaceReason !== undefined && isTransientReason(error.marketplaceReason))
    case "InvalidRequest":
    case "AmountBelowMinimum":
    case "AmountAboveMaximum":
      return notPaid(false)
    case "WalletInvalid":
    case "InsufficientFunds":
    case "MarketplaceTimeout":
    case "TransferFailed":
      return notPaid(true)
  }
}

export class WalletPurchases extends Context.Service<WalletPurchases, {
  readonly buy: (wallet: Wallet, purchase: WalletPurchase) => Effect.Effect<PurchaseOutcome>
}>()("core/direct/WalletPurchases") {
  /** Needs Blockchain, Marketplace, DirectPurchaseRecords and PayerAccounts; DirectSettings has defaults. */
  static readonly layer = Layer.effect(
    WalletPurchases,
    Effect.gen(function*() {
      const chain = yield* Blockchain
      const marketplace = yield* Marketplace
      const records = yield* DirectPurchaseRecords
      const payers = yield* PayerAccounts
      // One charge, one payment, ever: a key always replays its finished order, never runs another.
      const settings = { ...(yield* DirectSettings), replayWithin: Duration.infinity, reuseFinishedIds: false }
      const reconciler = makeDirectReconciler({ chain, marketplace, records, settings })
      const orderIds = makeOrderIds({ records, settings, reconcile: reconciler.reconcileRecord })
      const { purchase } = makeMarketplacePurchase({ chain, marketplace, records, payers, settings })

      const attempt = (held: Wallet, request: WalletPurchase) =>
        Effect.gen(function*() {
          const state = yield* chain.accountState(held.address).pipe(Effect.option)
          const wallet = Option.match(state, { onNone: () => held, onSome: (s) => held.withState(s) })
          const begun = yield* orderIds.begin({
            orderId: request.key,
            kind: request.kind,
            fingerprint: yield* sha256Hex(JSON.stringify([request.kind, wallet.address, request.username, null, request.units, null])),
            network: chain.network,
            walletAddress: wallet.address,
            walletVersion: wallet.version,
            recipient: request.username,
            amount: null,
            units: request.units,
            comment: null
          })
          if (begun._tag === "Done") return begun.record
          const quote = (payer: PayerAccount) =>
            request.kind === "stars"
              ? marketplace.quoteStars({ username: request.username, quantity: request.units, payer })
              : marketplace.quotePremium({ username: request.username, months: request.units, payer })
          return yield* Effect.uninterruptible(purchase(begun.record, wallet, 0n, quote))
        })

      const buy = Effect.fn("WalletPurchases.buy")(function*(wallet: Wallet, request: WalletPurchase) {
        const result = yield* Effect.result(attempt(wallet, request))
        if (result._tag === "Success") {
          const done = result.success
          const delivery = deliveryOf(done)
          return {
            _tag: "Delivered",
            txHash: done.txHash ?? "",
            ref: done.ref,
            delivery,
            deliveryNote: delivery === "paid" ? done.errorMessage : null
          } satisfies PurchaseOutcome
        }
        const record = yield* records.findLatest({ network: chain.network, walletAddress: wallet.address, orderId: request.key })
        return outcomeOf(result.failure, record)
      })

      return WalletPurchases.of({ buy })
    })
  )
}
