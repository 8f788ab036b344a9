/**
 * What `BatchedPurchases` does once a batch answered: the order's payment as stored decides its outcome,
 * and a paid one's delivery is read from the marketplace (with the order's own evidence) until it is
 * confirmed or the time to wait for it is over.
 */
import { Clock, Duration, Effect, Option, Semaphore } from "effect"
import { formatTon } from "../money/Nanoton.ts"
import type { Wallet } from "../ports/Blockchain.ts"
import { Marketplace, type PayerAccount } from "../ports/Marketplace.ts"
import { PayerAccounts } from "../ports/PayerAccounts.ts"
import { type WalletPayment, WalletPayments } from "../ports/WalletPayments.ts"
import { Busy, deliveredByReceipt, type FulfilmentOutcome, NotDelivered, Unknown } from "../orders/FulfilmentOutcome.ts"
import { BatchedPurchaseSettings } from "./BatchedPurchaseSettings.ts"
import type { PaymentResult } from "./WalletBatches.ts"

/** The first pause before reading a paid order's delivery again (the pauses then double up to `pollEvery`). */
const FIRST_REREAD = Duration.millis(200)

/**
 * Builds the delivery reads of a `BatchedPurchases` layer: `payerOf` (the wallet's payer description, kept
 * per address) and `afterPayment` (the order's outcome from its payment as stored).
 */
export const makePurchaseDelivery = Effect.gen(function* () {
  const marketplace = yield* Marketplace
  const payers = yield* PayerAccounts
  const records = yield* WalletPayments
  const settings = yield* BatchedPurchaseSettings
  const reports = yield* Semaphore.make(Math.max(1, settings.quoteConcurrency))

  // The payer's TON Connect description (a StateInit BOC) is the same for every order of a wallet.
  const described = new Map<string, PayerAccount>()
  const payerOf = (wallet: Wallet) =>
    Effect.suspend(() => {
      const known = described.get(wallet.address)
      return known !== undefined
        ? Effect.succeed(known)
        : Effect.tap(payers.describe(wallet), (p) => Effect.sync(() => void described.set(wallet.address, p)))
    })

  /** Reads the marketplace until it confirms delivery, or the order's own evidence proves the payment. */
  const deliver = (wallet: Wallet, payment: WalletPayment, boc: string | null, settleOnEvidence: boolean) =>
    Effect.gen(function* () {
      const payer = yield* payerOf(wallet)
      const deadline = (yield* Clock.currentTimeMillis) + Duration.toMillis(settings.deliveryWithin)
      let report = boc
      let last = "the marketplace has not confirmed delivery"
      // A paid invoice is often done moments after its first read ("processing"): look again soon,
      // then less and less often, up to `pollEvery` (a few more reads per order, no waiting a whole pause).
      let pause = Math.min(Duration.toMillis(FIRST_REREAD), Duration.toMillis(settings.pollEvery))
      while (true) {
        // Bounded like quotes: a settled batch's orders report at once, and quotes share the connections.
        const state = yield* Effect.result(
          reports.withPermit(
            marketplace.confirm({
              kind: payment.kind,
              reqId: payment.reqId,
              ref: payment.ref,
              ...(report === null ? {} : { boc: report, payer })
            })
          )
        )
        if (state._tag === "Success") {
          const s = state.success
          // The signed message is reported again while no answer came (the same message: harmless).
          if (s._tag === "Delivered" || s.confirm !== "unsent") report = null
          if (s._tag === "Delivered") return delivered(payment, "delivered", null)
          // Unattributable: the session's state will never be this order's again. Pending: only once looking again.
          if (s.confirm === "accepted" && (s._tag === "Unattributable" || settleOnEvidence)) {
            const why = s._tag === "Unattributable" ? s.why : `the marketplace still says "${s.mode}"`
            return delivered(
              payment,
              "paid",
              `Paid to the marketplace: tx ${payment.txHash} sent ${formatTon(payment.amount)} TON to ${payment.payTo} with Ref#${payment.ref}, and it accepted the signed message; delivery not confirmed (${why})`
            )
          }
          last = s._tag === "Pending" ? `the marketplace still says "${s.mode}"` : s.why
        } else last = `the marketplace answered: ${state.failure.message}`
        if ((yield* Clock.currentTimeMillis) >= deadline) break
        yield* Effect.sleep(pause)
        pause = Math.min(pause * 2, Duration.toMillis(settings.pollEvery))
      }
      // Paid and not confirmed: money left, so never a refund; looked at again later.
      return Unknown(`MarketplaceTimeout: Paid on chain (tx ${payment.txHash}), but ${last}`, payment.ref, {
        txHash: payment.txHash,
        chainState: "paid"
      })
    })

  const delivered = (payment: WalletPayment, delivery: "delivered" | "paid", note: string | null): FulfilmentOutcome =>
    deliveredByReceipt({ txHash: payment.txHash ?? "", ref: payment.ref, delivery, deliveryNote: note })

  const bocOf = (payment: WalletPayment) =>
    payment.batchId === null
      ? Effect.succeed(null)
      : Effect.map(records.batch(payment.batchId), (b) =>
          Option.match(b, { onNone: () => null, onSome: (x) => x.prepared.boc })
        )

  const afterPayment = (wallet: Wallet, key: string, boc: string | null, answer?: PaymentResult, again = false) =>
    Effect.gen(function* () {
      // A batch's answer carries the payment it read once settled paid; anything else is read here.
      const found = answer?._tag === "Paid" ? Option.some(answer.payment) : yield* records.find(key)
      if (Option.isNone(found)) {
        // Nothing was stored, so nothing was sent: the wallet was busy elsewhere or could not sign.
        return answer?._tag === "Open"
          ? Busy(answer.message)
          : NotDelivered(
              answer?._tag !== "NotPaid" || answer.retryable,
              answer?._tag === "NotPaid" ? answer.message : "Nothing was paid"
            )
      }
      const payment = found.value
      if (payment.state === "paid") return yield* deliver(wallet, payment, boc ?? (yield* bocOf(payment)), again)
      if (payment.state === "failed") {
        yield* marketplace.cancel(payment.kind, payment.reqId).pipe(Effect.ignore)
        return NotDelivered(true, payment.error ?? "Not paid")
      }
      // Held for an operator (migration 0026): no look on chain settles it here, and it is never paid again.
      if (payment.state === "held")
        return Unknown(payment.error ?? "The payment is held for an operator", payment.ref, {
          txHash: payment.txHash,
          chainState: "held",
          attentionNow: true
        })
      return Unknown(
        "The payment's message is not settled on chain yet; it is looked for again before anything else",
        payment.ref,
        { txHash: payment.txHash, chainState: "open" }
      )
    })

  return { payerOf, afterPayment }
})
