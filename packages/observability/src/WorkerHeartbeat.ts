/**
 * Proof of life of the in-process worker for `/readyz`: every job loop beats once per round. A loop
 * that is stuck (or a worker that died) stops beating; readiness fails once the last beat is older
 * than the allowed gap. Process-wide on purpose: one worker runs per process.
 */
let lastBeat: number | undefined

/** Called by every worker loop once per round. */
export const beat = (): void => {
  lastBeat = Date.now()
}

/** Milliseconds since the last beat, or undefined when no loop has beaten yet. */
export const sinceLastBeat = (now: number = Date.now()): number | undefined =>
  lastBeat === undefined ? undefined : now - lastBeat
