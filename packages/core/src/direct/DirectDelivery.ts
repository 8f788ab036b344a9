/**
 * The marketplace half of a paid purchase: report the signed message and wait for the marketplace
 * to deliver. Once the payment is on chain nothing is ever reported as "not paid": a delivery not
 * confirmed by the deadline leaves the record `unknown` (paid) for reconciliation.
 * Delivery is stated truthfully: `done` as delivered only when the marketplace's answer can only be
 * about this order; `done` as paid (see DeliveryEvidence) when its own evidence proves the payment
 * but the marketplace's state cannot be attributed to it (or, once reconciling, never said done).
 */
import { Clock, Duration, Effect, Result } from "effect"
import type { PreparedTransfer } from "../ports/Blockchain.ts"
import type { DirectPurchaseRecord, DirectPurchaseRecords } from "../ports/DirectPurchaseRecords.ts"
import {
  isTransient,
  type Marketplace,
  type MarketplaceErrorReason,
  type PayerAccount,
  type PurchaseKind
} from "../ports/Marketplace.ts"
import { DELIVERY_UNCONFIRMED, paidEvidence } from "./DeliveryEvidence.ts"
import type { DirectKind } from "./DirectPurchase.ts"
import { DirectPurchaseError } from "./DirectPurchaseError.ts"
import type { DirectSettingsShape } from "./DirectSettings.ts"

export interface DeliveryDeps {
  readonly records: DirectPurchaseRecords["Service"]
  readonly marketplace: Marketplace["Service"]
  readonly settings: DirectSettingsShape
}

export const purchaseKind = (kind: DirectKind): PurchaseKind | undefined =>
  kind === "stars" ? "stars" : kind === "premium" ? "premium" : kind === "ton_topup" ? "ton" : undefined

const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

export const makeDirectDelivery = ({ marketplace, records, settings }: DeliveryDeps) => {
  /** One look at the marketplace: true when delivered (the record is then `done`). */
  const checkOnce = Effect.fn("DirectDelivery.checkOnce")(function* (
    record: DirectPurchaseRecord,
    extra: { readonly boc?: string; readonly payer?: PayerAccount; readonly settleOnEvidence?: boolean } = {}
  ) {
    const kind = purchaseKind(record.kind)
    if (kind === undefined || record.marketplaceReqId === null || record.ref === null) return false
    const state = yield* marketplace.confirm({ kind, reqId: record.marketplaceReqId, ref: record.ref, ...extra })
    const at = yield* now
    if (state._tag === "Delivered") {
      yield* records
        .transition(
          record.id,
          ["sent", "unknown"],
          "done",
          { completedAt: at, errorReason: null, errorMessage: null },
          at
        )
        .pipe(Effect.orDie)
      return true
    }
    // Unattributable: the state will never be this order's again. Pending: only once reconciling.
    if (state._tag === "Pending" && !extra.settleOnEvidence) return false
    const evidence = paidEvidence(record, state)
    if (evidence === undefined) return false
    yield* records
      .transition(
        record.id,
        ["sent", "unknown"],
        "done",
        {
          completedAt: at,
          errorReason: DELIVERY_UNCONFIRMED,
          errorMessage: evidence
        },
        at
      )
      .pipe(Effect.orDie)
    yield* Effect.logWarning(
      "direct purchase settled as paid on its own evidence; the marketplace did not confirm its delivery"
    ).pipe(Effect.annotateLogs({ orderId: record.id, txHash: record.txHash ?? "", ref: record.ref }))
    return true
  })

  /** Waits for delivery of a `sent` (paid) purchase; `unknown` + MarketplaceTimeout when it does not come in time. */
  const deliver = Effect.fn("DirectDelivery.deliver")(function* (
    record: DirectPurchaseRecord,
    prepared: PreparedTransfer,
    payer: PayerAccount
  ) {
    const deadline = (yield* Clock.currentTimeMillis) + Duration.toMillis(settings.deliveryWithin)
    let last = "the marketplace has not confirmed delivery"
    let lastReason: MarketplaceErrorReason | undefined
    let reported = false
    while (true) {
      const seen = yield* Effect.result(checkOnce(record, reported ? {} : { boc: prepared.boc, payer }))
      reported = true
      if (Result.isSuccess(seen) && seen.success) return
      if (Result.isFailure(seen)) {
        last = `the marketplace answered: ${seen.failure.message}`
        lastReason = seen.failure.reason
        if (!isTransient(seen.failure)) break
      }
      if ((yield* Clock.currentTimeMillis) >= deadline) break
      yield* Effect.sleep(settings.pollEvery)
    }
    const error = new DirectPurchaseError({
      reason: "MarketplaceTimeout",
      message: `Paid on chain (tx ${record.txHash ?? "?"}), but ${last}; order ${record.orderId} will be reconciled, repeat the request with the same order_id for its result`,
      orderId: record.orderId,
      outcome: "Paid",
      ...(lastReason === undefined ? {} : { marketplaceReason: lastReason })
    })
    yield* records
      .transition(
        record.id,
        ["sent"],
        "unknown",
        { errorReason: error.reason, errorMessage: error.message },
        yield* now
      )
      .pipe(Effect.orDie)
    yield* Effect.logWarning("direct purchase paid, delivery unconfirmed").pipe(
      Effect.annotateLogs({ orderId: record.orderId, txHash: record.txHash ?? "" })
    )
    return yield* error
  })

  return { deliver, checkOnce }
}
