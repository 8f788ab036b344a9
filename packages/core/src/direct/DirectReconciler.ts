/**
 * Settles orders whose outcome was left open: `unknown` ones, and in-flight ones whose process died
 * (untouched for `staleAfter`). The stored message is looked up on chain by its normalized hash; a paid
 * purchase is then checked with the marketplace. Nothing here ever signs or sends a new message, so
 * reconciling twice, or beside a live request, can never pay twice.
 */
import { Clock, Duration, Effect, Option, Result } from "effect"
import type { Blockchain } from "../ports/Blockchain.ts"
import type {
  DirectPurchasePatch,
  DirectPurchaseRecord,
  DirectPurchaseRecords
} from "../ports/DirectPurchaseRecords.ts"
import type { Marketplace } from "../ports/Marketplace.ts"
import { makeDirectDelivery, purchaseKind } from "./DirectDelivery.ts"
import type { DirectState } from "./DirectPurchase.ts"
import type { DirectSettingsShape } from "./DirectSettings.ts"

export interface ReconcilerDeps {
  readonly records: DirectPurchaseRecords["Service"]
  readonly chain: Blockchain["Service"]
  readonly marketplace: Marketplace["Service"]
  readonly settings: DirectSettingsShape
}

const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

export const makeDirectReconciler = (deps: ReconcilerDeps) => {
  const { chain, marketplace, records, settings } = deps
  const delivery = makeDirectDelivery(deps)

  /** Moves the record on if it is still in `from`; a record someone else moved meanwhile is read again. */
  const move = (record: DirectPurchaseRecord, to: DirectState, patch: DirectPurchasePatch) =>
    Effect.gen(function* () {
      const at = yield* now
      const moved = yield* Effect.result(records.transition(record.id, [record.state], to, patch, at))
      if (Result.isSuccess(moved)) return moved.success
      return Option.getOrElse(yield* records.find(record.id), () => record)
    })

  const cancelInvoice = (record: DirectPurchaseRecord) => {
    const kind = purchaseKind(record.kind)
    return kind === undefined || record.marketplaceReqId === null
      ? Effect.void
      : marketplace.cancel(kind, record.marketplaceReqId).pipe(Effect.ignore)
  }

  const isStale = (record: DirectPurchaseRecord, at: Date) =>
    record.updatedAt.getTime() <= at.getTime() - Duration.toMillis(settings.staleAfter)

  /** One attempt to settle `record`; returns it as it is afterwards. */
  const reconcileRecord = Effect.fn("DirectReconciler.reconcileRecord")(function* (record: DirectPurchaseRecord) {
    if (record.state === "done" || record.state === "failed") return record
    // A live request is still working on it: leave it alone.
    if (record.state !== "unknown" && !isStale(record, yield* now)) return record
    yield* Effect.logInfo("reconciling direct order").pipe(
      Effect.annotateLogs({ orderId: record.orderId, state: record.state })
    )

    if (record.prepared === null) {
      // Nothing was ever signed, so nothing can have been paid.
      yield* cancelInvoice(record)
      return yield* move(record, "failed", {
        errorReason: "Abandoned",
        errorMessage: "The order was interrupted before any payment was signed; nothing was paid",
        completedAt: yield* now
      })
    }

    let current = record
    if (current.txHash === null) {
      const status = yield* Effect.result(chain.confirm(current.prepared!))
      if (Result.isFailure(status)) return current
      const verdict = status.success
      switch (verdict._tag) {
        case "Pending":
          return current.state === "unknown"
            ? current
            : yield* move(current, "unknown", {
                errorReason: "TransferFailed",
                errorMessage: "The payment's outcome is not known yet; it is looked up on chain again later"
              })
        case "Failed":
        case "Expired":
          yield* cancelInvoice(current)
          return yield* move(current, "failed", {
            errorReason: "TransferFailed",
            errorMessage:
              verdict._tag === "Expired"
                ? "The payment expired before the network executed it; nothing was paid"
                : `The payment did not execute (${verdict.reason}); nothing was paid`,
            ...(verdict._tag === "Failed" && verdict.txHash !== undefined ? { txHash: verdict.txHash } : {}),
            completedAt: yield* now
          })
        case "Confirmed": {
          const paid = { txHash: verdict.txHash, fee: verdict.fee, lock: false, errorReason: null, errorMessage: null }
          if (purchaseKind(current.kind) === undefined) {
            return yield* move(current, "done", { ...paid, completedAt: yield* now })
          }
          current = yield* move(current, "sent", paid)
          if (current.state !== "sent") return current
        }
      }
    }

    // Past its live wait: its own evidence settles it (the signed message is reported again if needed).
    const delivered = yield* Effect.result(
      delivery.checkOnce(current, {
        settleOnEvidence: true,
        ...(current.prepared === null ? {} : { boc: current.prepared.boc })
      })
    )
    if (Result.isSuccess(delivered) && delivered.success) {
      return Option.getOrElse(yield* records.find(current.id), () => current)
    }
    return current.state === "unknown"
      ? current
      : yield* move(current, "unknown", {
          errorReason: "MarketplaceTimeout",
          errorMessage: `Paid on chain (tx ${current.txHash ?? "?"}); the marketplace has not confirmed delivery yet`
        })
  })

  /** Reconciles every record under an order id (of any wallet: operators name orders by id); newest first. */
  const reconcile = Effect.fn("DirectReconciler.reconcile")(function* (orderId: string) {
    return yield* Effect.forEach(yield* records.findByOrderId(orderId), reconcileRecord)
  })

  /** Every open order due for a look (worker / CLI), oldest first. */
  const reconcileOpen = Effect.fn("DirectReconciler.reconcileOpen")(function* (limit: number) {
    const at = yield* now
    const open = yield* records.listUnresolved(new Date(at.getTime() - Duration.toMillis(settings.staleAfter)), limit)
    return yield* Effect.forEach(open, reconcileRecord)
  })

  return { reconcileRecord, reconcile, reconcileOpen }
}
