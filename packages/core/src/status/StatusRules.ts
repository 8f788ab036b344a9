import type { SessionFigures, WorkerBeat } from "../ports/FleetStatus.ts"

/** Refused signed messages in an hour from which a session counts as failing (the shipped alert's threshold). */
export const REFUSALS_FAILING = 2
/** A worker whose loops have not gone round for this long is silent (the shipped alert's threshold). */
export const WORKER_SILENT_SECONDS = 300
/** Beats older than this are forgotten: a worker gone for a day is not part of the fleet any more. */
export const FORGET_WORKER_AFTER_SECONDS = 24 * 3600

/**
 * A Fragment session's health: `failing` once Fragment refused its signed messages repeatedly in the
 * last hour (its cookies likely expired or the account is restricted), else `busy` while a purchase
 * holds it, else `ready`.
 */
export type SessionHealth = "failing" | "busy" | "ready"

export const sessionHealth = (figures: SessionFigures, now: Date): SessionHealth =>
  figures.refused >= REFUSALS_FAILING
    ? "failing"
    : figures.heldUntil !== null && figures.heldUntil.getTime() > now.getTime()
      ? "busy"
      : "ready"

const seconds = (from: Date, to: Date): number => Math.max(0, Math.floor((to.getTime() - from.getTime()) / 1000))

export interface WorkerState extends WorkerBeat {
  readonly silentSeconds: number
  readonly alive: boolean
}

export const workerState = (beat: WorkerBeat, now: Date): WorkerState => {
  const silentSeconds = seconds(beat.beatAt, now)
  return { ...beat, silentSeconds, alive: silentSeconds < WORKER_SILENT_SECONDS }
}

/** Seconds the oldest order has waited, null when none waits. */
export const waitedSeconds = (since: Date | null, now: Date): number | null =>
  since === null ? null : seconds(since, now)

/** The freshest hot-wallet read among the workers' beats (every worker pays from the same wallet). */
export const freshestWallet = (beats: ReadonlyArray<WorkerBeat>): WorkerBeat["hotWallet"] =>
  beats.reduce<WorkerBeat["hotWallet"]>(
    (best, beat) =>
      beat.hotWallet !== null && (best === null || beat.hotWallet.readAt.getTime() > best.readAt.getTime())
        ? beat.hotWallet
        : best,
    null
  )
