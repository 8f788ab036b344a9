/**
 * Account orders bought from the marketplace and paid from the hot wallet in batches: each order
 * quotes its own invoice (at most `quoteConcurrency` marketplace calls at once), then joins the next batch: while the wallet
 * has as many messages in flight as it allows, the invoices that became ready wait, and the next message carries all of
 * them (up to `batchLimit`). Exactly once per key through `WalletBatches`; then each order's delivery is read
 * from the marketplace with its own evidence. Answers the order's `FulfilmentOutcome` (core decides
 * what the order does next from it: `orders/NextStep.ts`).
 */
import { Context, Effect, Layer, Option, Semaphore } from "effect"
import type { Wallet } from "../ports/Blockchain.ts"
import { Marketplace, type MarketplaceError, type PaymentRequest } from "../ports/Marketplace.ts"
import { WalletPayments } from "../ports/WalletPayments.ts"
import type { PremiumMonths } from "../orders/Order.ts"
import { type FulfilmentOutcome, refusedByMarketplace } from "../orders/FulfilmentOutcome.ts"
import { makeBatchCollector } from "./BatchCollector.ts"
import { BatchedPurchaseSettings } from "./BatchedPurchaseSettings.ts"
import { makePurchaseDelivery } from "./PurchaseDelivery.ts"
import { WalletBatches } from "./WalletBatches.ts"

/** A marketplace purchase paid from the hot wallet for one charge of an account order. */
export type WalletPurchase = {
  /** Stable per charge across attempts and restarts: the payment's exactly-once key. */
  readonly key: string
  readonly username: string
} & ({ readonly kind: "stars"; readonly units: number } | { readonly kind: "premium"; readonly units: PremiumMonths })

export class BatchedPurchases extends Context.Service<
  BatchedPurchases,
  {
    readonly buy: (wallet: Wallet, purchase: WalletPurchase) => Effect.Effect<FulfilmentOutcome>
  }
>()("core/wallet/BatchedPurchases") {
  /** Needs Marketplace, PayerAccounts, WalletPayments and WalletBatches. */
  static readonly layer = Layer.effect(
    BatchedPurchases,
    Effect.gen(function* () {
      const marketplace = yield* Marketplace
      const records = yield* WalletPayments
      const batches = yield* WalletBatches
      const settings = yield* BatchedPurchaseSettings
      const quotes = yield* Semaphore.make(Math.max(1, settings.quoteConcurrency))
      const { payInBatch, counted } = yield* makeBatchCollector
      const { payerOf, afterPayment } = yield* makePurchaseDelivery

      const quote = (wallet: Wallet, request: WalletPurchase) =>
        Effect.gen(function* () {
          const payer = yield* payerOf(wallet)
          const ask: Effect.Effect<PaymentRequest, MarketplaceError> =
            request.kind === "stars"
              ? marketplace.quoteStars({
                  username: request.username,
                  quantity: request.units,
                  payer,
                  batched: settings.batchLimit > 1
                })
              : marketplace.quotePremium({
                  username: request.username,
                  months: request.units,
                  payer,
                  batched: settings.batchLimit > 1
                })
          // At most `quoteConcurrency` at once; the Fragment adapter itself backs off on HTTP 429.
          return yield* quotes.withPermit(ask)
        })

      // The wallet's state on chain is read where it matters, when a batch is signed (not per order).
      const buy = Effect.fn("BatchedPurchases.buy")(function* (wallet: Wallet, request: WalletPurchase) {
        const known = yield* records.find(request.key)
        if (Option.isSome(known) && known.value.state === "open") yield* batches.reconcile(wallet)
        if (Option.isSome(known) && known.value.state !== "failed")
          return yield* afterPayment(wallet, request.key, null, undefined, true)
        const quoted = yield* Effect.acquireUseRelease(
          counted(wallet.address, 1),
          () => Effect.result(quote(wallet, request)),
          () => counted(wallet.address, -1)
        )
        if (quoted._tag === "Failure") {
          return refusedByMarketplace(quoted.failure.reason, quoted.failure.message)
        }
        const invoice = quoted.success
        const outcome = yield* payInBatch(wallet, {
          key: request.key,
          kind: request.kind,
          reqId: invoice.reqId,
          ref: invoice.ref,
          payTo: invoice.address,
          amount: invoice.amount,
          validUntil: invoice.validUntil,
          payload: invoice.payload
        })
        const answer = yield* afterPayment(wallet, request.key, outcome._tag === "Paid" ? outcome.boc : null, outcome)
        // Not paid and never stored: the invoice is let go, the next attempt quotes a new one.
        if (answer._tag === "NotDelivered" || answer._tag === "Busy")
          yield* marketplace.cancel(request.kind, invoice.reqId).pipe(Effect.ignore)
        return answer
      })

      return BatchedPurchases.of({ buy })
    })
  )
}
