import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { Payments } from "../src/payments/Payments.ts"
import { signUp } from "../src/testing/fixtures.ts"
import { layerMemory } from "../src/testing/MemoryPorts.ts"
import { TopupService } from "../src/topups/TopupService.ts"
import { TopupSettings } from "../src/topups/TopupSettings.ts"
import { AccountCaps, DEFAULT_ACCOUNT_CAPS } from "../src/caps/CapSettings.ts"

const HOUR = 60 * 60 * 1000

describe("payable amount quarantine (memory)", () => {
  it.effect("a cancelled top-up's payable amount is not given to anyone else for 24 hours, then it is", () =>
    Effect.gen(function* () {
      const topups = yield* TopupService
      const [alice, bob, carol, dave, erin] = yield* Effect.all([signUp(), signUp(), signUp(), signUp(), signUp()])
      const a = yield* topups.create(alice.id, 50_000)
      yield* topups.cancel(alice.id, a.id)
      const b = yield* topups.create(bob.id, 50_000)
      assert.deepStrictEqual([a.payableUzs, b.payableUzs], [50_000, 50_001])
      yield* topups.cancel(bob.id, b.id)
      yield* TestClock.adjust(HOUR * 23)
      assert.strictEqual((yield* topups.create(carol.id, 50_000)).payableUzs, 50_002)
      yield* TestClock.adjust(HOUR + 1)
      // a and b left the open states 24 h + 1 ms ago; the one made at 23 h is still pending
      assert.strictEqual((yield* topups.create(dave.id, 50_000)).payableUzs, 50_000)
      assert.strictEqual((yield* topups.create(erin.id, 50_000)).payableUzs, 50_001)
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect("an expired, a rejected and an operator-approved top-up quarantine their payable amounts too", () =>
    Effect.gen(function* () {
      const topups = yield* TopupService
      const [alice, bob, carol, dave] = yield* Effect.all([signUp(), signUp(), signUp(), signUp()])
      const expired = yield* topups.create(alice.id, 30_000)
      yield* TestClock.adjust("15 minutes")
      assert.deepStrictEqual(
        (yield* topups.expireDue).map((t) => t.id),
        [expired.id]
      )
      const rejected = yield* topups.create(bob.id, 30_000)
      yield* topups.reject(rejected.id, "no payment seen")
      const approved = yield* topups.create(carol.id, 30_000)
      const paid = yield* topups.approve(approved.id, "paid in cash")
      assert.deepStrictEqual([paid.status, paid.confirmedBy], ["paid", "operator"])
      const next = yield* topups.create(dave.id, 30_000)
      assert.deepStrictEqual(
        [expired.payableUzs, rejected.payableUzs, approved.payableUzs, next.payableUzs],
        [30_000, 30_001, 30_002, 30_003]
      )
      // An amount an operator credited stays blocked for its owner too (a late bank payment would credit twice).
      assert.strictEqual((yield* topups.create(carol.id, 30_000)).payableUzs, 30_004)
      // Its owner gets an expired or rejected amount back: a late payment for it credits the same account.
      assert.strictEqual((yield* topups.create(bob.id, 30_000)).payableUzs, 30_001)
      assert.strictEqual((yield* topups.create(alice.id, 30_000)).payableUzs, 30_000)
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect("one account creating and cancelling again and again holds one amount, never all of them", () =>
    Effect.gen(function* () {
      const topups = yield* TopupService
      const [mallory, alice] = yield* Effect.all([signUp(), signUp()])
      const payables = new Set<number>()
      for (let i = 0; i < 200; i++) {
        const t = yield* topups.create(mallory.id, 20_000)
        payables.add(t.payableUzs)
        yield* topups.cancel(mallory.id, t.id)
      }
      assert.deepStrictEqual([...payables], [20_000])
      assert.strictEqual((yield* topups.create(alice.id, 20_000)).payableUzs, 20_001)
    }).pipe(
      Effect.provide(layerMemory),
      Effect.provideService(AccountCaps, { ...DEFAULT_ACCOUNT_CAPS, topupsPerDay: 1000, cancelsPerDay: 1000 })
    )
  )

  it.effect("a top-up confirmed by a bank payment frees its payable amount at once", () =>
    Effect.gen(function* () {
      const topups = yield* TopupService
      const alice = yield* signUp()
      const bob = yield* signUp()
      const a = yield* topups.create(alice.id, 40_000)
      const bank = yield* Payments.use((p) => p.incoming({ amountUzs: 40_000, externalId: "bank-1" }))
      assert.deepStrictEqual(
        [bank.outcome, Option.map(bank.topup, (t) => t.confirmedBy)],
        ["matched", Option.some("payment")]
      )
      const b = yield* topups.create(bob.id, 40_000)
      assert.deepStrictEqual([a.payableUzs, b.payableUzs], [40_000, 40_000])
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect("the window is a TopupSettings field", () =>
    Effect.gen(function* () {
      const topups = yield* TopupService
      const [alice, bob, carol] = yield* Effect.all([signUp(), signUp(), signUp()])
      const a = yield* topups.create(alice.id, 20_000)
      yield* topups.cancel(alice.id, a.id)
      const b = yield* topups.create(bob.id, 20_000)
      yield* topups.cancel(bob.id, b.id)
      yield* TestClock.adjust("61 seconds")
      assert.deepStrictEqual(
        [a.payableUzs, b.payableUzs, (yield* topups.create(carol.id, 20_000)).payableUzs],
        [20_000, 20_001, 20_000]
      )
    }).pipe(
      Effect.provide(
        layerMemory.pipe(
          Layer.provide(
            Layer.succeed(TopupSettings)({
              minUzs: 1_000,
              maxUzs: 100_000_000,
              ttlMs: 60_000,
              receiptMaxBytes: 100,
              payableQuarantineMs: 60_000
            })
          )
        )
      )
    )
  )

  it.effect(
    "fails TopupPayableExhausted when all 1,000 offsets are open or quarantined by others",
    () =>
      Effect.gen(function* () {
        const topups = yield* TopupService
        for (let i = 0; i < 1000; i++) {
          const user = yield* signUp()
          const t = yield* topups.create(user.id, 10_000)
          if (i % 2 === 0) yield* topups.cancel(user.id, t.id)
        }
        const error = yield* Effect.flip(topups.create((yield* signUp()).id, 10_000))
        assert.strictEqual(error._tag, "TopupPayableExhausted")
      }).pipe(Effect.provide(layerMemory)),
    60_000
  )
})
