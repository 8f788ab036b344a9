import { Context, type Effect } from "effect"
import type { OrderId } from "../ids.ts"
import type { HotWalletReport } from "../wallet/HotWalletStatus.ts"

/** A Fragment session as the shared table holds it, with what Fragment said of its last hour's purchases. */
export interface SessionFigures {
  /** the session's label (never its cookies) */
  readonly session: string
  /** Held by a purchase in flight until this instant; null when free. */
  readonly heldUntil: Date | null
  /** The last hour's purchases by Fragment's answer to their signed message. */
  readonly accepted: number
  readonly refused: number
  readonly unsent: number
  readonly lastPurchaseAt: Date | null
}

/** Balance orders waiting or being carried, and the one waiting longest. */
export interface QueueFigures {
  readonly queued: number
  readonly processing: number
  readonly needsAttention: number
  readonly oldestWaiting: { readonly orderId: OrderId; readonly since: Date } | null
}

/** One worker process's proof of life, shared by every process through the store. */
export interface WorkerBeat {
  /** host and process id: unique while the process lives */
  readonly worker: string
  readonly startedAt: Date
  /** When the process's job loops last went round (not when this row was written). */
  readonly beatAt: Date
  /** The hot wallet as this worker last read it from the chain, and when; null before its first read. */
  readonly hotWallet: { readonly report: HotWalletReport; readonly readAt: Date } | null
}

/**
 * What an operator's status panel reads at once, across every process of the fleet: the Fragment
 * sessions, the balance-order queue, the hot wallet's batches not yet settled, and each worker's last beat.
 * Workers write their beat here (`beat`), so a dead worker shows as silent on every server.
 */
export class FleetStatus extends Context.Service<
  FleetStatus,
  {
    readonly sessions: (now: Date) => Effect.Effect<ReadonlyArray<SessionFigures>>
    readonly queue: Effect.Effect<QueueFigures>
    /** Hot-wallet batches signed or sent, not yet executed or expired. */
    readonly batchesInFlight: Effect.Effect<number>
    readonly workers: Effect.Effect<ReadonlyArray<WorkerBeat>>
    /** Records `beat` and forgets workers silent since `forgetBefore`. */
    readonly beat: (beat: WorkerBeat, forgetBefore: Date) => Effect.Effect<void>
  }
>()("core/ports/FleetStatus") {}
