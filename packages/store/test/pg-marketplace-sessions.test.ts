/**
 * On real PostgreSQL: one purchase at a time per Fragment session, whoever asks (several connections
 * at once), the session's latest invoice decides whose state it is, and an accepted confirmReq stays.
 */
import { assert, describe, it } from "@effect/vitest"
import { MarketplaceSessions } from "@resale/core/ports/MarketplaceSessions.ts"
import { Nanoton } from "@resale/core/money/Nanoton.ts"
import { Effect, Option } from "effect"
import { IsolatedPostgres } from "../src/testing/IsolatedPostgres.ts"

const at = (seconds: number) => new Date(Date.UTC(2026, 10, 26, 8, 0, seconds))
const run = <A, E>(body: Effect.Effect<A, E, MarketplaceSessions>) =>
  body.pipe(Effect.provide(IsolatedPostgres.layerStore))

describe("marketplace sessions (real PostgreSQL)", () => {
  it.effect(
    "of twenty concurrent takes of one session exactly one wins; another session is free",
    () =>
      run(
        Effect.gen(function* () {
          const store = yield* MarketplaceSessions
          const won = yield* Effect.all(
            Array.from({ length: 20 }, (_, i) => store.take("main", `quote:${i}`, at(0), at(60))),
            { concurrency: "unbounded" }
          )
          assert.strictEqual(won.filter(Boolean).length, 1)
          assert.isTrue(yield* store.take("second", "quote:x", at(0), at(60)))
          // a hold that ran out is free again (a dead process never blocks the session for good)
          assert.isFalse(yield* store.take("main", "late", at(59), at(120)))
          assert.isTrue(yield* store.take("main", "late", at(60), at(120)))
        })
      ),
    30_000
  )

  it.effect(
    "the invoice opened last is the session's; an older one is refused, the hold passes on",
    () =>
      run(
        Effect.gen(function* () {
          const store = yield* MarketplaceSessions
          assert.isTrue(yield* store.take("main", "quote:a", at(0), at(60)))
          assert.isFalse(yield* store.opened("main", "quote:other", "reqA", at(60)), "not the holder")
          assert.isTrue(yield* store.opened("main", "quote:a", "reqA", at(60)))
          yield* store.record({
            reqId: "reqA",
            session: "main",
            ref: "kpJ55h3BW",
            payTo: "UQfragment",
            amount: Nanoton.make(460_900_000n)
          })
          // live purchase: its own hold, kept
          assert.strictEqual(yield* store.resume("main", "reqA", at(1), at(11)), "held")
          assert.isFalse(yield* store.take("main", "quote:b", at(2), at(62)), "still held by A")
          // A's hold runs out, B takes the session and opens its invoice: A's state is no longer readable
          assert.isTrue(yield* store.take("main", "quote:b", at(61), at(121)))
          assert.strictEqual(yield* store.resume("main", "reqA", at(62), at(72)), "refused")
          assert.isTrue(yield* store.opened("main", "quote:b", "reqB", at(121)))
          assert.strictEqual(yield* store.resume("main", "reqA", at(63), at(73)), "refused")
          yield* store.release("main", "reqA") // not A's hold: nothing happens
          assert.isFalse(yield* store.take("main", "quote:c", at(64), at(124)))
          yield* store.release("main", "reqB")
          // free, B still the latest: a read for B takes the session just for the read
          assert.strictEqual(yield* store.resume("main", "reqB", at(65), at(75)), "taken")
          assert.isFalse(yield* store.take("main", "quote:c", at(66), at(126)))
          assert.isTrue(yield* store.take("main", "quote:c", at(75), at(135)))
        })
      ),
    30_000
  )

  it.effect(
    "a lent session: still its invoice's to read, taken over only by a take that accepts a loan, once",
    () =>
      run(
        Effect.gen(function* () {
          const store = yield* MarketplaceSessions
          assert.isTrue(yield* store.take("lend", "quote:a", at(0), at(180)))
          assert.isTrue(yield* store.opened("lend", "quote:a", "reqA", at(180)))
          yield* store.lend("lend", "quote:other") // not the holder: no loan
          assert.isFalse(yield* store.take("lend", "quote:b", at(1), at(181), true))
          yield* store.lend("lend", "reqA")
          // nobody asked for it: A still reads its own delivery, and the loan stays
          assert.strictEqual(yield* store.resume("lend", "reqA", at(2), at(12)), "held")
          assert.isFalse(yield* store.take("lend", "quote:b", at(3), at(183)), "a plain take waits for free sessions")
          // of ten takes accepting a loan exactly one wins; the session is then B's, not lent
          const won = yield* Effect.all(
            Array.from({ length: 10 }, (_, i) => store.take("lend", `quote:b${i}`, at(4), at(184), true)),
            { concurrency: "unbounded" }
          )
          assert.strictEqual(won.filter(Boolean).length, 1)
          assert.strictEqual(yield* store.resume("lend", "reqA", at(5), at(15)), "refused")
          assert.isFalse(yield* store.take("lend", "quote:c", at(6), at(186), true), "the new hold is no loan")
          // release ends a loan: a fresh hold is never lent
          const winner = `quote:b${won.indexOf(true)}`
          assert.isTrue(yield* store.opened("lend", winner, "reqB", at(186)))
          yield* store.lend("lend", "reqB")
          yield* store.release("lend", "reqB")
          assert.isTrue(yield* store.take("lend", "quote:d", at(7), at(187)))
          assert.isFalse(yield* store.take("lend", "quote:e", at(8), at(188), true))
        })
      ),
    30_000
  )

  it.effect(
    "each invoice's evidence: recorded once, an accepted confirmReq is never downgraded",
    () =>
      run(
        Effect.gen(function* () {
          const store = yield* MarketplaceSessions
          const purchase = {
            reqId: "reqE",
            session: "s2",
            ref: "TPoMpzC7e",
            payTo: "UQfragment",
            amount: Nanoton.make(9_218_000_000_000n)
          }
          yield* store.record(purchase)
          yield* store.record({ ...purchase, ref: "other" })
          assert.deepStrictEqual(Option.getOrThrow(yield* store.purchase("reqE")), {
            ...purchase,
            confirm: "unsent",
            confirmNote: null
          })
          yield* store.confirmed("reqE", "accepted", "confirmReq answered ok")
          yield* store.confirmed("reqE", "refused", "Fragment confirmReq: Transaction not found.")
          const after = Option.getOrThrow(yield* store.purchase("reqE"))
          assert.deepStrictEqual([after.confirm, after.confirmNote], ["accepted", "confirmReq answered ok"])
          assert.isTrue(Option.isNone(yield* store.purchase("unknown")))
        })
      ),
    30_000
  )
})
