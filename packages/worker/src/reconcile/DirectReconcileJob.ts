/**
 * Reconciliation of wallet payments whose outcome was left open: direct-surface requests that timed out
 * (`unknown`) and in-flight records of processes that died (untouched for
 * `PAYMENT_STALE_AFTER`). Every `ORDER_RECONCILE_DELAY` a batch is settled on chain (and with the
 * marketplace) by `DirectPurchases.reconcileOpen`, which never signs or sends anything, so running it in
 * several workers at once, or beside a live request, can never pay twice.
 */
import { DirectPurchases } from "@resale/core/direct/DirectPurchases.ts"
import type { DirectPurchaseRecord } from "@resale/core/ports/DirectPurchaseRecords.ts"
import { Cause, Duration, Effect, Layer } from "effect"
import { WorkerConfig } from "../WorkerConfig.ts"

/** Records looked at per round; a full round that settled something is followed by another at once. */
export const RECONCILE_BATCH = 100

const settled = (record: DirectPurchaseRecord) => record.state === "done" || record.state === "failed"

/** One round: reconciles up to a batch; answers how many records it settled (done or failed). */
export const reconcileRound = (direct: DirectPurchases["Service"], limit: number = RECONCILE_BATCH) =>
  Effect.gen(function* () {
    const after = yield* direct.reconcileOpen(limit)
    const done = after.filter((r) => r.state === "done").length
    const failed = after.filter((r) => r.state === "failed").length
    if (done + failed > 0) {
      yield* Effect.logInfo(
        `reconciled open wallet payments: ${done} done, ${failed} failed, ${after.length - done - failed} still open`
      )
    }
    return { looked: after.length, settled: after.filter(settled).length }
  })

/** The job, started with the layer and interrupted with its scope. */
export const DirectReconcileJob = Layer.effectDiscard(
  Effect.gen(function* () {
    const settings = yield* WorkerConfig
    const direct = yield* DirectPurchases
    const pause = Duration.millis(Math.max(50, Duration.toMillis(settings.reconcileDelay)))
    const round = reconcileRound(direct).pipe(
      Effect.map(({ looked, settled }) => looked >= RECONCILE_BATCH && settled > 0),
      // A defect is logged and the job goes on after the pause: one bad record never stops it.
      Effect.catchCause((cause) =>
        Cause.hasInterruptsOnly(cause)
          ? Effect.failCause(cause)
          : Effect.as(Effect.logError("reconcile failed", cause), false)
      )
    )
    yield* Effect.forkScoped(
      round.pipe(
        Effect.flatMap((more) => (more ? Effect.void : Effect.sleep(pause))),
        Effect.forever,
        Effect.annotateLogs({ job: "reconcile" })
      )
    )
  })
)
