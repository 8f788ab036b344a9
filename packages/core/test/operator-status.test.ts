/**
 * The status panel's rules: a session failing after repeated refusals, busy while held; a worker silent
 * past the alert's threshold; the freshest hot-wallet read among the workers; the oldest order's wait.
 */
import { assert, describe, it } from "@effect/vitest"
import type { OrderId } from "@resale/core/ids.ts"
import { Nanoton } from "@resale/core/money/Nanoton.ts"
import { FleetStatus, type SessionFigures, type WorkerBeat } from "@resale/core/ports/FleetStatus.ts"
import { OperatorStatus } from "@resale/core/status/OperatorStatus.ts"
import { sessionHealth, WORKER_SILENT_SECONDS, workerState } from "@resale/core/status/StatusRules.ts"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"

const at = (seconds: number) => new Date(Date.UTC(2026, 10, 28, 12, 0, 0) + seconds * 1000)
const session = (over: Partial<SessionFigures>): SessionFigures => ({
  session: "main",
  heldUntil: null,
  accepted: 0,
  refused: 0,
  unsent: 0,
  lastPurchaseAt: null,
  ...over
})

describe("status rules", () => {
  it("a session is failing from two refusals, busy while held, ready otherwise", () => {
    assert.strictEqual(sessionHealth(session({ refused: 1, accepted: 9 }), at(0)), "ready")
    assert.strictEqual(sessionHealth(session({ refused: 2 }), at(0)), "failing")
    assert.strictEqual(sessionHealth(session({ refused: 2, heldUntil: at(30) }), at(0)), "failing")
    assert.strictEqual(sessionHealth(session({ heldUntil: at(30) }), at(0)), "busy")
    assert.strictEqual(sessionHealth(session({ heldUntil: at(30) }), at(30)), "ready", "a hold that ran out")
  })

  it("a worker is silent once its loops stood still as long as the alert allows", () => {
    const beat: WorkerBeat = { worker: "a:1", startedAt: at(0), beatAt: at(10), hotWallet: null }
    assert.isTrue(workerState(beat, at(10 + WORKER_SILENT_SECONDS - 1)).alive)
    const silent = workerState(beat, at(10 + WORKER_SILENT_SECONDS))
    assert.isFalse(silent.alive)
    assert.strictEqual(silent.silentSeconds, WORKER_SILENT_SECONDS)
  })
})

const wallet = (balance: bigint, syncTime: number) => ({
  funded: true as const,
  version: "highload-v3" as const,
  address: "UQhot",
  state: "active" as const,
  balance: Nanoton.make(balance),
  syncTime
})

const fleet = Layer.succeed(FleetStatus)({
  sessions: () =>
    Effect.succeed([session({ session: "a", refused: 3 }), session({ session: "b", heldUntil: at(500) })]),
  queue: Effect.succeed({
    queued: 2,
    processing: 1,
    needsAttention: 1,
    oldestWaiting: { orderId: 7 as OrderId, since: at(-90) }
  }),
  batchesInFlight: Effect.succeed(1),
  workers: Effect.succeed([
    {
      worker: "old:1",
      startedAt: at(-900),
      beatAt: at(-400),
      hotWallet: { report: wallet(5n, 1000), readAt: at(-450) }
    },
    { worker: "new:2", startedAt: at(-60), beatAt: at(-2), hotWallet: { report: wallet(7n, 2000), readAt: at(-30) } }
  ]),
  beat: () => Effect.void
})

describe("operator status", () => {
  it.effect(
    "reads the fleet at one instant: health, the freshest wallet read, its block, the wait, silent workers",
    () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(at(0).getTime())
        const report = yield* (yield* OperatorStatus).read
        assert.deepStrictEqual(
          report.sessions.map((s) => [s.session, s.health]),
          [
            ["a", "failing"],
            ["b", "busy"]
          ]
        )
        const hot = report.hotWallet?.report
        assert.strictEqual(hot?.funded === true ? hot.balance : undefined, Nanoton.make(7n), "the freshest read")
        assert.deepStrictEqual(report.lastBlockAt, new Date(2000 * 1000))
        assert.strictEqual(report.queue.oldestWaitingSeconds, 90)
        assert.deepStrictEqual(
          report.workers.map((w) => [w.worker, w.alive]),
          [
            ["old:1", false],
            ["new:2", true]
          ]
        )
      }).pipe(Effect.provide(OperatorStatus.layer.pipe(Layer.provide(fleet))))
  )
})
