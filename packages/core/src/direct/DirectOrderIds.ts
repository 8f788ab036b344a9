/**
 * What an order id means when it comes back: the reuse rule of the direct surface. An order id belongs
 * to the wallet that pays (records are unique per network, wallet and id), so nothing here can see or
 * block another wallet's orders. For the latest order of the wallet under the id:
 * - none: the request runs under the id;
 * - running (or its outcome still open after a look on chain): `OrderPending`, nothing new is paid;
 * - `done`, and the same request (kind, recipient, amount, comment) finished within `replayWithin`:
 *   its stored receipt again, nothing paid (a client retrying after a time-out);
 * - `done` otherwise (another request, or the same one later), or `failed` (nothing was paid): the
 *   request runs as a new order and the id names it from then on (bots reuse constant ids, and re-send
 *   failed orders under their id).
 */
import { Clock, Duration, Effect, Option } from "effect"
import type { DirectPurchaseRecord, DirectPurchaseRecords, NewDirectPurchase } from "../ports/DirectPurchaseRecords.ts"
import { DirectPurchaseError } from "./DirectPurchaseError.ts"
import type { DirectSettingsShape } from "./DirectSettings.ts"

export type Begun =
  | { readonly _tag: "Run"; readonly record: DirectPurchaseRecord }
  | { readonly _tag: "Done"; readonly record: DirectPurchaseRecord }

export interface OrderIdDeps {
  readonly records: DirectPurchaseRecords["Service"]
  readonly settings: DirectSettingsShape
  /** One look on chain (and with the marketplace) at an order left open; the record as it is afterwards. */
  readonly reconcile: (record: DirectPurchaseRecord) => Effect.Effect<DirectPurchaseRecord>
}

export const orderPending = (orderId: string) =>
  new DirectPurchaseError({
    reason: "OrderPending",
    message: `Order ${orderId} is still being executed; repeat the same request with the same order_id for its result`,
    orderId
  })

/** True when `record` answers a repeat of `fresh`: the same request, finished within the replay window. */
export const isReplay = (record: DirectPurchaseRecord, fresh: NewDirectPurchase, now: number, window: Duration.Input) =>
  record.state === "done" &&
  record.fingerprint === fresh.fingerprint &&
  (record.completedAt ?? record.updatedAt).getTime() >= now - Duration.toMillis(window)

export const makeOrderIds = ({ reconcile, records, settings }: OrderIdDeps) => {
  /** Claims the wallet's order id: Run with a pending record, or Done with the finished one to answer. */
  const begin = Effect.fn("DirectOrderIds.begin")(function* (fresh: NewDirectPurchase) {
    for (let round = 0; round < 3; round++) {
      const now = yield* Clock.currentTimeMillis
      const claimed = yield* records.claim(fresh, new Date(now))
      if (claimed._tag === "Claimed") return { _tag: "Run", record: claimed.record } satisfies Begun
      const existing = yield* reconcile(claimed.record)
      if (existing.state !== "done" && existing.state !== "failed") return yield* orderPending(fresh.orderId)
      if (isReplay(existing, fresh, now, settings.replayWithin))
        return { _tag: "Done", record: existing } satisfies Begun
      if (existing.state === "done" && !settings.reuseFinishedIds) {
        return yield* new DirectPurchaseError({
          reason: "OrderIdReused",
          message: `order_id ${fresh.orderId} was already used for a different request`,
          orderId: fresh.orderId
        })
      }
      const next = yield* records.supersede(existing, fresh, new Date(now))
      if (Option.isSome(next)) return { _tag: "Run", record: next.value } satisfies Begun
      // Another request of this wallet moved the id first: look again.
    }
    return yield* orderPending(fresh.orderId)
  })

  return { begin }
}
