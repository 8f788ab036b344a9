/**
 * `nextStep`: what an order does after an attempt, decided in core from the outcome and the order's
 * counters alone (refund, retry, hand back, look again, or the operators' queue).
 */
import { assert, describe, it } from "@effect/vitest"
import { Duration } from "effect"
import fc from "fast-check"
import { Busy, Delivered, NotDelivered, Unknown } from "../src/orders/FulfilmentOutcome.ts"
import { nextStep, type StepSettings } from "../src/orders/NextStep.ts"

const settings: StepSettings = {
  maxAttempts: 8,
  retryBase: Duration.seconds(30),
  unknownRetryBase: Duration.seconds(30),
  unknownRetryMax: Duration.minutes(10),
  attentionAfter: Duration.minutes(30),
  attentionAttempts: 8,
  busyRetry: Duration.seconds(1)
}
const now = new Date("2026-06-01T12:00:00Z")
const fresh = { attempts: 0, unknownSince: null, unknownAttempts: 0 }
const later = (ms: number) => new Date(now.getTime() + ms)

describe("nextStep", () => {
  it("a delivery completes the order with what the attempt found", () => {
    assert.deepStrictEqual(nextStep(fresh, Delivered("tx", "R", "evidence"), settings, now, 0), {
      _tag: "Complete",
      completion: { txId: "tx", fragmentRef: "R", unconfirmed: "evidence" }
    })
  })

  it("a refusal refunds now; a transient failure retries with a doubling backoff, and refunds at the limit", () => {
    assert.deepStrictEqual(nextStep(fresh, NotDelivered(false, "refused"), settings, now, 0), {
      _tag: "Refund",
      error: "refused"
    })
    assert.deepStrictEqual(nextStep(fresh, NotDelivered(true, "down"), settings, now, 0.9), {
      _tag: "Retry",
      attempts: 1,
      error: "down",
      at: later(30_000)
    })
    assert.deepStrictEqual(nextStep({ ...fresh, attempts: 3 }, NotDelivered(true, "down"), settings, now, 0), {
      _tag: "Retry",
      attempts: 4,
      error: "down",
      at: later(240_000)
    })
    assert.deepStrictEqual(nextStep({ ...fresh, attempts: 7 }, NotDelivered(true, "down"), settings, now, 0), {
      _tag: "Refund",
      error: "gave up after 8 attempts: down",
      attempts: 8
    })
  })

  it("a busy wallet hands the order back soon, attempts unchanged, spread by the random draw", () => {
    assert.deepStrictEqual(nextStep(fresh, Busy("busy"), settings, now, 0), { _tag: "HandBack", at: later(1000) })
    assert.deepStrictEqual(nextStep(fresh, Busy("busy"), settings, now, 0.5), { _tag: "HandBack", at: later(1500) })
  })

  it("an unknown outcome is looked at again until it is overdue by time AND checks, then the operators'", () => {
    const first = nextStep(fresh, Unknown("timeout"), settings, now, 1)
    assert.deepStrictEqual(first, { _tag: "Recheck", checks: 1, since: now, at: later(30_000) })
    const since = new Date(now.getTime() - 31 * 60_000)
    // Checked often but not for long, or long ago but rarely: still rechecked.
    assert.strictEqual(
      nextStep({ ...fresh, unknownSince: now, unknownAttempts: 20 }, Unknown("t"), settings, now, 0)._tag,
      "Recheck"
    )
    assert.strictEqual(
      nextStep({ ...fresh, unknownSince: since, unknownAttempts: 2 }, Unknown("t"), settings, now, 0)._tag,
      "Recheck"
    )
    assert.deepStrictEqual(
      nextStep({ ...fresh, unknownSince: since, unknownAttempts: 7 }, Unknown("t"), settings, now, 0),
      { _tag: "Attention", checks: 8, since }
    )
  })

  it("a payment no later check can settle goes to the operators at once", () => {
    assert.deepStrictEqual(
      nextStep(fresh, Unknown("held", "R", { chainState: "held", attentionNow: true }), settings, now, 0),
      { _tag: "Attention", checks: 1, since: now }
    )
  })

  it("money that may have left is never refunded, whatever the counters", () => {
    fc.assert(
      fc.property(
        fc.nat(100),
        fc.nat(100),
        fc.option(fc.integer({ min: 0, max: 10 ** 10 }), { nil: null }),
        fc.double({ min: 0, max: 0.999, noNaN: true }),
        fc.boolean(),
        (attempts, unknownAttempts, ago, random, attentionNow) => {
          const order = { attempts, unknownAttempts, unknownSince: ago === null ? null : later(-ago) }
          const step = nextStep(order, Unknown("t", null, { attentionNow }), settings, now, random)
          return step._tag === "Recheck" || step._tag === "Attention"
        }
      )
    )
  })
})
