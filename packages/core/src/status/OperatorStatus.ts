/**
 * The operator's status panel in one read: each Fragment session's health, the hot wallet (as the
 * workers last read it: its type, address, balance and the chain time of that read, the last block
 * seen), hot-wallet batches in flight, the order queue with its oldest waiting order, and each
 * worker's last beat. Everything comes from the shared store, so every server shows the same fleet
 * and the server never needs the hot wallet's keys.
 */
import { Context, Effect, Layer } from "effect"
import { FleetStatus, type QueueFigures, type SessionFigures } from "../ports/FleetStatus.ts"
import { currentDate } from "../Time.ts"
import type { HotWalletReport } from "../wallet/HotWalletStatus.ts"
import {
  freshestWallet,
  type SessionHealth,
  sessionHealth,
  type WorkerState,
  waitedSeconds,
  workerState
} from "./StatusRules.ts"

export interface StatusReport {
  readonly at: Date
  readonly sessions: ReadonlyArray<SessionFigures & { readonly health: SessionHealth }>
  readonly queue: QueueFigures & { readonly oldestWaitingSeconds: number | null }
  readonly batchesInFlight: number
  readonly hotWallet: { readonly report: HotWalletReport; readonly readAt: Date } | null
  /** Chain time of the newest block a worker saw (through its hot-wallet read), null when unknown. */
  readonly lastBlockAt: Date | null
  readonly workers: ReadonlyArray<WorkerState>
}

export class OperatorStatus extends Context.Service<OperatorStatus, { readonly read: Effect.Effect<StatusReport> }>()(
  "core/status/OperatorStatus"
) {
  /** Needs FleetStatus. */
  static readonly layer = Layer.effect(
    OperatorStatus,
    Effect.gen(function* () {
      const fleet = yield* FleetStatus
      const read = Effect.gen(function* () {
        const now = yield* currentDate
        const [sessions, queue, batchesInFlight, beats] = yield* Effect.all(
          [fleet.sessions(now), fleet.queue, fleet.batchesInFlight, fleet.workers],
          { concurrency: "unbounded" }
        )
        const hotWallet = freshestWallet(beats)
        const syncTime = hotWallet?.report.funded === true ? hotWallet.report.syncTime : undefined
        return {
          at: now,
          sessions: sessions.map((figures) => ({ ...figures, health: sessionHealth(figures, now) })),
          queue: { ...queue, oldestWaitingSeconds: waitedSeconds(queue.oldestWaiting?.since ?? null, now) },
          batchesInFlight,
          hotWallet,
          lastBlockAt: syncTime === undefined ? null : new Date(syncTime * 1000),
          workers: beats.map((beat) => workerState(beat, now))
        } satisfies StatusReport
      })
      return OperatorStatus.of({ read })
    })
  )
}
