/**
 * One marketplace purchase paid from a wallet, exactly once, for a claimed `pending` record: check
 * funds, quote, store the invoice (`Ref#`), pay it through `DirectPayment` (the message stored before
 * it goes out), then wait for delivery. The direct surface's (the caller's wallet; account orders pay
 * through `wallet/BatchedPurchases`). Run it uninterruptibly.
 */
import { Clock, Effect, Option } from "effect"
import { formatTon } from "../money/Nanoton.ts"
import type { Blockchain, Wallet } from "../ports/Blockchain.ts"
import type { DirectPurchaseRecord, DirectPurchaseRecords } from "../ports/DirectPurchaseRecords.ts"
import type { Marketplace, MarketplaceError, PayerAccount, PaymentRequest } from "../ports/Marketplace.ts"
import { makeDirectDelivery } from "./DirectDelivery.ts"
import { failOrder, makeDirectPayment, takenOver } from "./DirectPayment.ts"
import { DirectPurchaseError } from "./DirectPurchaseError.ts"
import type { DirectSettingsShape } from "./DirectSettings.ts"
import type { PayerAccounts } from "../ports/PayerAccounts.ts"

export interface PurchaseDeps {
  readonly chain: Blockchain["Service"]
  readonly marketplace: Marketplace["Service"]
  readonly records: DirectPurchaseRecords["Service"]
  readonly payers: PayerAccounts["Service"]
  readonly settings: DirectSettingsShape
}

const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

// Every reason but a timeout answers as a marketplace error (spec §7); the marketplace's own reason rides along.
export const marketplaceFailure = (error: MarketplaceError): DirectPurchaseError =>
  error.reason === "Timeout"
    ? new DirectPurchaseError({
        reason: "MarketplaceTimeout",
        message: `The marketplace did not answer in time; nothing was paid: ${error.message}`,
        marketplaceReason: error.reason
      })
    : error.reason === "SessionBusy"
      ? // the marketplace's sessions are all buying for others: like a busy service, retry shortly
        new DirectPurchaseError({
          reason: "ServiceBusy",
          message: error.message,
          outcome: "NotPaid",
          marketplaceReason: error.reason
        })
      : new DirectPurchaseError({
          reason: "MarketplaceRejected",
          message: error.message,
          marketplaceReason: error.reason
        })

export const makeMarketplacePurchase = ({ chain, marketplace, payers, records, settings }: PurchaseDeps) => {
  const payment = makeDirectPayment({ chain, records, settings })
  const delivery = makeDirectDelivery({ marketplace, records, settings })

  const fundsFor = (
    record: DirectPurchaseRecord,
    wallet: Wallet,
    amount: bigint
  ): Effect.Effect<void, DirectPurchaseError> =>
    Effect.gen(function* () {
      if (wallet.balance >= amount + settings.feeReserve) return
      return yield* failOrder(
        records,
        record,
        ["pending"],
        new DirectPurchaseError({
          reason: "InsufficientFunds",
          message: `The wallet holds ${formatTon(wallet.balance)} TON, not enough for ${formatTon(amount)} TON plus network fees`
        })
      )
    })

  /** Quote, store the invoice, pay it exactly once, wait for delivery; the record as it ends (`done`). */
  const purchase = (
    record: DirectPurchaseRecord,
    wallet: Wallet,
    needs: bigint,
    quote: (payer: PayerAccount) => Effect.Effect<PaymentRequest, MarketplaceError>
  ): Effect.Effect<DirectPurchaseRecord, DirectPurchaseError> =>
    Effect.gen(function* () {
      yield* fundsFor(record, wallet, needs)
      const payer = yield* payers.describe(wallet)
      const quoted = yield* Effect.result(quote(payer))
      if (quoted._tag === "Failure")
        return yield* failOrder(records, record, ["pending"], marketplaceFailure(quoted.failure))
      const invoice = quoted.success
      const cancel = marketplace.cancel(invoice.kind, invoice.reqId).pipe(Effect.ignore)
      const withInvoice = yield* records
        .transition(
          record.id,
          ["pending"],
          "pending",
          {
            marketplaceReqId: invoice.reqId,
            ref: invoice.ref
          },
          yield* now
        )
        .pipe(
          Effect.catchTags({
            DirectRecordConflict: () => Effect.andThen(cancel, takenOver(record)),
            DirectWalletBusy: (e) => Effect.die(e) // no lock is taken here
          })
        )
      yield* fundsFor(withInvoice, wallet, invoice.amount).pipe(Effect.tapError(() => cancel))
      const paid = yield* payment
        .pay(
          withInvoice,
          wallet,
          {
            to: invoice.address,
            amount: invoice.amount,
            payload: invoice.payload,
            validUntil: invoice.validUntil
          },
          "sent"
        )
        .pipe(Effect.tapError((e) => (e.outcome === "NotPaid" ? cancel : Effect.void)))
      yield* delivery.deliver(paid.record, paid.prepared, payer)
      return yield* records.find(record.id).pipe(Effect.map(Option.getOrThrow))
    })

  return { purchase, pay: payment.pay }
}
