/**
 * What operators read of the payments made from wallets through the direct surface (and the hot
 * wallet's older ones): every record, one order id's records, and the open ones the next
 * reconciliation will look at. Read only: reconciling them is `DirectPurchases.reconcile*`.
 */
import { Clock, Context, Duration, Effect, Layer } from "effect"
import type { Page, PageRequest } from "../Page.ts"
import {
  type DirectPurchaseFilter,
  type DirectPurchaseRecord,
  DirectPurchaseRecords
} from "../ports/DirectPurchaseRecords.ts"
import { DirectSettings } from "./DirectSettings.ts"

export class DirectPurchaseHistory extends Context.Service<
  DirectPurchaseHistory,
  {
    /** Every record matching the filter, newest first; `total` counts all matches. */
    readonly list: (filter: DirectPurchaseFilter, page: PageRequest) => Effect.Effect<Page<DirectPurchaseRecord>>
    /** Every record under an order id, of any wallet, newest first. */
    readonly byOrderId: (orderId: string) => Effect.Effect<ReadonlyArray<DirectPurchaseRecord>>
    /**
     * The records `DirectPurchases.reconcileOpen(limit)` would take now: `unknown` ones and in-flight
     * ones untouched for `staleAfter` (younger ones belong to a live request), oldest first.
     */
    readonly open: (limit: number) => Effect.Effect<ReadonlyArray<DirectPurchaseRecord>>
  }
>()("core/direct/DirectPurchaseHistory") {
  /** Needs DirectPurchaseRecords; DirectSettings has defaults. */
  static readonly layer = Layer.effect(
    DirectPurchaseHistory,
    Effect.gen(function* () {
      const records = yield* DirectPurchaseRecords
      const settings = yield* DirectSettings
      const open = (limit: number) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          records.listUnresolved(new Date(now - Duration.toMillis(settings.staleAfter)), limit)
        )
      return DirectPurchaseHistory.of({ list: records.list, byOrderId: records.findByOrderId, open })
    })
  )
}
