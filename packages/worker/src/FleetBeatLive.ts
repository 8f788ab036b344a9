/**
 * This process's beat in the shared store every few seconds (`FleetBeats`), so the operator's status
 * panel on any server lists every worker and shows a dead one as silent. Named by host and process id.
 */
import { FleetBeats } from "@resale/core/status/FleetBeats.ts"
import { sinceLastBeat } from "@resale/observability/WorkerHeartbeat.ts"
import { Effect, Layer, Schedule } from "effect"
import { hostname } from "node:os"

export const BEAT_EVERY = "10 seconds"

export const FleetBeatLive = Layer.effectDiscard(
  Effect.gen(function* () {
    const beats = yield* FleetBeats
    const worker = `${hostname()}:${process.pid}`
    const startedAt = new Date()
    const beat = Effect.suspend(() => {
      const since = sinceLastBeat()
      return beats.beat(worker, startedAt, since === undefined ? null : new Date(Date.now() - since))
    }).pipe(Effect.catchCause((cause) => Effect.logWarning("worker beat could not be written", cause)))
    yield* Effect.forkScoped(Effect.repeat(beat, Schedule.spaced(BEAT_EVERY)))
  })
)
