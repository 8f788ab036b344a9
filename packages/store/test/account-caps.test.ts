/**
 * Per-account caps and the payable amount squat, on real PostgreSQL through the core's services:
 * the attacks of the security review run here and are refused, and no account can make another
 * account's top-up fail.
 */
import { assert, describe, it } from "@effect/vitest"
import { AccountCaps, DEFAULT_ACCOUNT_CAPS, TicketService, TopupService, type UserId } from "@resale/core"
import { Effect, Layer, Result } from "effect"
import { TestClock } from "effect/testing"
import { PgStore } from "../src/PgStore.ts"
import { IsolatedPostgres } from "../src/testing/IsolatedPostgres.ts"
import { newUser } from "./contract/support.ts"

const Live = Layer.mergeAll(TopupService.layer, TicketService.layer).pipe(
  Layer.provideMerge(PgStore.layer.pipe(Layer.provideMerge(IsolatedPostgres.make(12))))
)

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])
let photos = 0
const png = () => new Uint8Array([...PNG, ++photos & 0xff, photos >> 8])

const create = (userId: UserId, amount: number) => TopupService.use((t) => t.create(userId, amount))
const cancel = (userId: UserId, id: Parameters<TopupService["Service"]["cancel"]>[1]) =>
  TopupService.use((t) => t.cancel(userId, id))
const capOf = <A, E extends { readonly _tag: string }, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.map(Effect.flip(effect), (e) =>
    e._tag === "AccountCapReached" ? (e as unknown as { reason: string }).reason : e._tag
  )

describe("the payable amount squat (real PostgreSQL)", () => {
  it.effect(
    "1,000 create/cancel pairs of 20,000 by one account: refused after its daily caps; everyone else's 20,000 works",
    () =>
      Effect.gen(function* () {
        const mallory = yield* newUser(1)
        const victims = yield* Effect.forEach([2, 3, 4], (n) => newUser(n))
        let created = 0
        let refused = 0
        for (let i = 0; i < 1000; i++) {
          const made = yield* Effect.result(create(mallory.id, 20_000))
          if (Result.isFailure(made)) {
            refused++
            continue
          }
          created++
          yield* Effect.ignore(cancel(mallory.id, made.success.id))
        }
        // Ten cancels a day, then the cancels are refused and three open top-ups are all one account holds.
        const { cancelsPerDay, openCardTopups } = DEFAULT_ACCOUNT_CAPS
        assert.strictEqual(created, cancelsPerDay + openCardTopups)
        assert.strictEqual(refused, 1000 - created)
        assert.strictEqual(yield* capOf(create(mallory.id, 20_000)), "OpenCardTopups")
        // Every other account still gets a 20,000 top-up, right away.
        for (const victim of victims) {
          const topup = yield* create(victim.id, 20_000)
          assert.strictEqual(topup.status, "pending")
          assert.isAtMost(topup.payableUzs - 20_000, 10)
        }
      }).pipe(Effect.provide(Live)),
    120_000
  )

  it.effect(
    "even with no caps at all, one account's churn of creates and cancels holds one amount",
    () =>
      Effect.gen(function* () {
        const [mallory, alice] = yield* Effect.all([newUser(11), newUser(12)])
        for (let i = 0; i < 300; i++) {
          const made = yield* create(mallory.id, 20_000)
          assert.strictEqual(made.payableUzs, 20_000)
          yield* cancel(mallory.id, made.id)
        }
        assert.strictEqual((yield* create(alice.id, 20_000)).payableUzs, 20_001)
      }).pipe(
        Effect.provide(Live),
        Effect.provideService(AccountCaps, { ...DEFAULT_ACCOUNT_CAPS, topupsPerDay: 100_000, cancelsPerDay: 100_000 })
      ),
    120_000
  )

  it.effect(
    "creating 20,000 .. 20,999 to fill every offset stops at the account caps; other accounts stay free",
    () =>
      Effect.gen(function* () {
        const [mallory, alice] = yield* Effect.all([newUser(21), newUser(22)])
        const outcomes: Array<string> = []
        for (let i = 0; i < 60; i++) {
          const made = yield* Effect.result(create(mallory.id, 20_000 + i))
          if (Result.isSuccess(made)) {
            outcomes.push("ok")
            yield* cancel(mallory.id, made.success.id).pipe(Effect.ignore)
          } else outcomes.push(made.failure._tag === "AccountCapReached" ? made.failure.reason : made.failure._tag)
        }
        const { cancelsPerDay, openCardTopups } = DEFAULT_ACCOUNT_CAPS
        assert.strictEqual(outcomes.filter((o) => o === "ok").length, cancelsPerDay + openCardTopups)
        assert.isTrue(outcomes.slice(cancelsPerDay + openCardTopups).every((o) => o === "OpenCardTopups"))
        const mine = yield* create(alice.id, 20_000)
        assert.isAtMost(mine.payableUzs - 20_000, DEFAULT_ACCOUNT_CAPS.topupsPerDay)
        // Past the caps' day (and the open ones expired by then) the account may top up again.
        yield* TestClock.adjust("24 hours")
        yield* TopupService.use((t) => t.expireDue)
        assert.strictEqual((yield* create(mallory.id, 30_000)).status, "pending")
      }).pipe(Effect.provide(Live)),
    120_000
  )
})

describe("caps per account (real PostgreSQL)", () => {
  it.effect(
    "10 concurrent card top-ups of one account: exactly the open cap succeed, the others 409-style OpenCardTopups",
    () =>
      Effect.gen(function* () {
        const user = yield* newUser(31)
        const results = yield* Effect.all(
          Array.from({ length: 10 }, (_, n) => Effect.result(create(user.id, 40_000 + n))),
          { concurrency: "unbounded" }
        )
        const ok = results.filter(Result.isSuccess).length
        const reasons = results.flatMap((r) =>
          Result.isFailure(r) && r.failure._tag === "AccountCapReached" ? [r.failure.reason] : []
        )
        assert.strictEqual(ok, DEFAULT_ACCOUNT_CAPS.openCardTopups)
        assert.deepStrictEqual(reasons, Array(10 - DEFAULT_ACCOUNT_CAPS.openCardTopups).fill("OpenCardTopups"))
      }).pipe(Effect.provide(Live)),
    60_000
  )

  it.effect(
    "cancels per day, open reviews, uploads per day and tickets per day are capped; other accounts are not",
    () =>
      Effect.gen(function* () {
        yield* Effect.gen(function* () {
          const [user, other] = yield* Effect.all([newUser(41), newUser(42)])
          const topups = yield* TopupService
          const tickets = yield* TicketService
          const cards = yield* Effect.forEach([1, 2, 3], (n) => create(user.id, 10_000 * n))
          yield* cancel(user.id, cards[0]!.id)
          yield* cancel(user.id, cards[1]!.id)
          assert.strictEqual(yield* capOf(cancel(user.id, cards[2]!.id)), "CancelsPerDay")
          // Receipts: two reviews open at once, then the open cap; an approved one frees a place, the daily cap stays.
          const first = yield* topups.createWithReceipt(user.id, 5_000, png())
          yield* topups.createWithReceipt(user.id, 6_000, png())
          assert.strictEqual(yield* capOf(topups.createWithReceipt(user.id, 7_000, png())), "OpenReviews")
          yield* topups.approve(first.id, "ok")
          yield* topups.createWithReceipt(user.id, 8_000, png())
          yield* topups.reject(first.id).pipe(Effect.ignore)
          const rejected = yield* topups.list({ userId: user.id, status: ["review"], offset: 0, limit: 10 })
          yield* Effect.forEach(rejected.items, (t) => topups.reject(t.id))
          assert.strictEqual(yield* capOf(topups.createWithReceipt(user.id, 9_000, png())), "UploadsPerDay")
          // Tickets.
          yield* tickets.create(user.id, { subject: "one", body: "a" })
          yield* tickets.create(user.id, { subject: "two", body: "b" })
          assert.strictEqual(yield* capOf(tickets.create(user.id, { subject: "three", body: "c" })), "TicketsPerDay")
          // Another account is untouched by all of it.
          yield* tickets.create(other.id, { subject: "mine", body: "x" })
          yield* topups.createWithReceipt(other.id, 5_000, png())
          const theirs = yield* create(other.id, 10_000)
          yield* cancel(other.id, theirs.id)
          // A refused daily action says when it frees up: the oldest one leaves the window in 24 h.
          const refusal = yield* Effect.flip(tickets.create(user.id, { subject: "four", body: "d" }))
          assert.strictEqual(refusal._tag === "AccountCapReached" && refusal.retryAfterSeconds, 24 * 3600)
          yield* TestClock.adjust("24 hours")
          yield* tickets.create(user.id, { subject: "next day", body: "e" })
        })
      }).pipe(
        Effect.provide(Live),
        // Caps are read when the services are built, as the composition roots do from config.
        Effect.provideService(AccountCaps, {
          ...DEFAULT_ACCOUNT_CAPS,
          openCardTopups: 5,
          cancelsPerDay: 2,
          openReviews: 2,
          uploadsPerDay: 3,
          ticketsPerDay: 2
        })
      ),
    60_000
  )
})
