/**
 * On real PostgreSQL: the per-account endpoint cap holds under concurrent registrations, a repeated
 * fan-out adds no second delivery, a claimed delivery is leased, and attempts are recorded; claims
 * are fair per endpoint, and the pending caps hold under concurrent enqueues.
 */
import { assert, describe, it } from "@effect/vitest"
import { WebhookEndpoints } from "@resale/core/ports/WebhookEndpoints.ts"
import { Effect, Option } from "effect"
import type { StorePorts } from "../src/PgStore.ts"
import { IsolatedPostgres } from "../src/testing/IsolatedPostgres.ts"
import { at, newUser } from "./contract/support.ts"

const run = <A, E>(body: Effect.Effect<A, E, StorePorts>) => body.pipe(Effect.provide(IsolatedPostgres.layerStore))

const endpoint = (url: string) => ({
  url,
  secret: "whsec_c2VjcmV0",
  events: ["order.completed", "topup.credited"] as const
})

const roomy = { maxPending: 100, overflowError: "full" }

describe("webhook endpoints (real PostgreSQL)", () => {
  it.effect(
    "at most `max` endpoints per user, even registered concurrently; others' ids are not found",
    () =>
      run(
        Effect.gen(function* () {
          const store = yield* WebhookEndpoints
          const alice = yield* newUser(1)
          const bob = yield* newUser(2)
          const made = yield* Effect.all(
            Array.from({ length: 8 }, (_, i) =>
              store.create({ userId: alice.id, ...endpoint(`https://a.example/${i}`) }, 5, at(i))
            ),
            { concurrency: "unbounded" }
          )
          assert.strictEqual(made.filter((m) => m !== "full").length, 5)
          const mine = yield* store.listByUser(alice.id)
          assert.strictEqual(mine.length, 5)
          assert.deepStrictEqual(mine[0]!.events, ["order.completed", "topup.credited"])
          assert.isTrue(Option.isNone(yield* store.find(bob.id, mine[0]!.id)))
          assert.isFalse(yield* store.remove(bob.id, mine[0]!.id))
          assert.isTrue(Option.isNone(yield* store.setSecret(bob.id, mine[0]!.id, "whsec_b3RoZXI=")))
          const rotated = yield* store.setSecret(alice.id, mine[0]!.id, "whsec_bmV3")
          assert.strictEqual(Option.getOrThrow(rotated).secret, "whsec_bmV3")
          assert.strictEqual((yield* store.subscribed(alice.id, "order.failed")).length, 0)
          assert.strictEqual((yield* store.subscribed(alice.id, "order.completed")).length, 5)
        })
      ),
    30_000
  )

  it.effect(
    "one delivery per (endpoint, event id); claims lease; attempts recorded; delete cascades",
    () =>
      run(
        Effect.gen(function* () {
          const store = yield* WebhookEndpoints
          const alice = yield* newUser(1)
          const e = yield* store.create({ userId: alice.id, ...endpoint("https://a.example/hook") }, 5, at(0))
          assert.notStrictEqual(e, "full")
          if (e === "full") return
          const delivery = { endpointId: e.id, eventId: "evt_1", eventType: "order.completed", body: "{}" }
          yield* store.enqueue([delivery], roomy, at(0))
          yield* store.enqueue([delivery, { ...delivery, body: '{"changed":true}' }], roomy, at(5))
          const log = yield* store.deliveries(e.id, 10)
          assert.strictEqual(log.length, 1)
          assert.strictEqual(log[0]!.body, "{}")

          const [first, second] = yield* Effect.all(
            [store.claimDue(at(10), 10, 60_000), store.claimDue(at(10), 10, 60_000)],
            {
              concurrency: "unbounded"
            }
          )
          assert.strictEqual(first!.length + second!.length, 1, "a due delivery goes to one claimer")
          assert.strictEqual((yield* store.claimDue(at(20), 10, 60_000)).length, 0, "leased")
          const id = log[0]!.id
          yield* store.recordAttempt(
            id,
            { status: "pending", statusCode: 500, error: "answered 500", nextAttemptAt: at(30_000) },
            at(11)
          )
          const retried = (yield* store.deliveries(e.id, 10))[0]!
          assert.deepInclude(retried, {
            status: "pending",
            attempts: 1,
            lastStatusCode: 500,
            lastError: "answered 500"
          })
          assert.strictEqual(retried.nextAttemptAt?.getTime(), at(30_000).getTime())
          const again = yield* store.claimDue(at(30_000), 10, 60_000)
          assert.strictEqual(again[0]!.endpoint.url, "https://a.example/hook")
          yield* store.recordAttempt(
            id,
            { status: "delivered", statusCode: 204, error: null, nextAttemptAt: null },
            at(30_001)
          )
          // a late second record (a lease that ran out) does not undo the delivery
          yield* store.recordAttempt(
            id,
            { status: "failed", statusCode: null, error: "late", nextAttemptAt: null },
            at(30_002)
          )
          const done = (yield* store.deliveries(e.id, 10))[0]!
          assert.deepInclude(done, { status: "delivered", attempts: 2, lastStatusCode: 204, nextAttemptAt: null })
          assert.strictEqual(done.deliveredAt?.getTime(), at(30_001).getTime())

          assert.isTrue(yield* store.remove(alice.id, e.id))
          assert.strictEqual((yield* store.deliveries(e.id, 10)).length, 0)
        })
      ),
    30_000
  )
  it.effect(
    "claims: one delivery per endpoint, none while its send is in flight, endpoints served in turn",
    () =>
      run(
        Effect.gen(function* () {
          const store = yield* WebhookEndpoints
          const alice = yield* newUser(1)
          const made = yield* Effect.forEach(["slow", "fast", "other"], (name, i) =>
            store.create({ userId: alice.id, ...endpoint(`https://${name}.example/hook`) }, 5, at(i))
          )
          const [slow, fast, other] = made.map((e) => (e === "full" ? assert.fail("full") : e))
          for (let i = 0; i < 5; i++)
            yield* store.enqueue(
              [slow!, fast!].map((e) => ({
                endpointId: e.id,
                eventId: `evt_${i}`,
                eventType: "order.completed",
                body: "{}"
              })),
              roomy,
              at(10 + i)
            )
          const first = yield* store.claimDue(at(100), 10, 60_000)
          assert.deepStrictEqual(first.map((c) => c.endpoint.id).sort(), [slow!.id, fast!.id].sort(), "one each")
          assert.deepStrictEqual(
            first.map((c) => c.delivery.eventId),
            ["evt_0", "evt_0"],
            "the oldest of each endpoint"
          )
          assert.strictEqual((yield* store.claimDue(at(101), 10, 60_000)).length, 0, "both endpoints busy")
          // the fast one answers; its next delivery is claimable at once, the slow one stays busy
          const fastClaim = first.find((c) => c.endpoint.id === fast!.id)!
          yield* store.recordAttempt(
            fastClaim.delivery.id,
            { status: "delivered", statusCode: 200, error: null, nextAttemptAt: null },
            at(102)
          )
          const next = yield* store.claimDue(at(103), 10, 60_000)
          assert.deepStrictEqual(
            next.map((c) => [c.endpoint.id, c.delivery.eventId]),
            [[fast!.id, "evt_1"]]
          )
          // round-robin: an endpoint never served goes before the ones served
          yield* store.enqueue(
            [{ endpointId: other!.id, eventId: "evt_x", eventType: "order.completed", body: "{}" }],
            roomy,
            at(104)
          )
          yield* store.recordAttempt(
            next[0]!.delivery.id,
            { status: "delivered", statusCode: 200, error: null, nextAttemptAt: null },
            at(105)
          )
          const turn = yield* store.claimDue(at(106), 1, 60_000)
          assert.strictEqual(turn[0]!.endpoint.id, other!.id)
          // a lease that ran out (a worker died) frees the endpoint again
          const later = yield* store.claimDue(at(200_000), 10, 60_000)
          assert.includeMembers(
            later.map((c) => c.endpoint.id),
            [slow!.id, fast!.id]
          )
        })
      ),
    30_000
  )

  it.effect(
    "pending caps: past `maxPending` an event is logged failed, not queued; tests refused past theirs, even at once",
    () =>
      run(
        Effect.gen(function* () {
          const store = yield* WebhookEndpoints
          const alice = yield* newUser(1)
          const e = yield* store.create({ userId: alice.id, ...endpoint("https://a.example/hook") }, 5, at(0))
          if (e === "full") return assert.fail("full")
          const cap = { maxPending: 3, overflowError: "not queued: full" }
          yield* Effect.forEach(
            Array.from({ length: 6 }, (_, i) => i),
            (i) =>
              store.enqueue(
                [{ endpointId: e.id, eventId: `evt_${i}`, eventType: "order.completed", body: "{}" }],
                cap,
                at(i)
              ),
            { concurrency: "unbounded", discard: true }
          )
          const log = yield* store.deliveries(e.id, 10)
          assert.strictEqual(log.filter((d) => d.status === "pending").length, 3)
          const dropped = log.filter((d) => d.status === "failed")
          assert.strictEqual(dropped.length, 3)
          assert.isTrue(dropped.every((d) => d.lastError === "not queued: full" && d.attempts === 0))

          const tests = yield* Effect.all(
            Array.from({ length: 8 }, (_, i) =>
              store.enqueueTest(
                { endpointId: e.id, eventId: `evt_test_${i}`, eventType: "webhook.test", body: "{}" },
                3,
                at(50)
              )
            ),
            { concurrency: "unbounded" }
          )
          assert.strictEqual(tests.filter((t) => t.queued).length, 3)
          const refused = tests.find((t) => !t.queued)
          assert.strictEqual(refused?.queued === false && refused.nextAttemptAt?.getTime(), at(50).getTime())

          assert.strictEqual(yield* store.removeAllByUser(alice.id), 1)
          assert.strictEqual((yield* store.listByUser(alice.id)).length, 0)
          assert.strictEqual((yield* store.deliveries(e.id, 10)).length, 0)
        })
      ),
    30_000
  )
})
