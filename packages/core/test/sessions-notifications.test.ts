import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import { TestClock } from "effect/testing"
import { TopupService } from "../src/topups/TopupService.ts"
import { MAX_DELIVERY_ATTEMPTS, Notifications } from "../src/outbox/Notifications.ts"
import { SessionService } from "../src/sessions/SessionService.ts"
import { signUp } from "../src/testing/fixtures.ts"
import { MemoryDb } from "../src/testing/MemoryDb.ts"
import { layerMemory } from "../src/testing/MemoryPorts.ts"

// A real browser key (the web-push documentation's) and two 16-byte auth secrets.
const P256 = "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM"
const AUTH = "tBHItJI5svbpez7KI4CCXg"
const AUTH2 = "AAECAwQFBgcICQoLDA0ODw"

describe("SessionService", () => {
  it.effect("stores only a hash of the token; sessions expire and close", () =>
    Effect.gen(function* () {
      const sessions = yield* SessionService
      const alice = yield* signUp()
      const { session, token } = yield* sessions.open({ kind: "user", userId: alice.id })
      const db = yield* MemoryDb
      assert.isFalse(db.state().sessions.has(Redacted.value(token)))
      assert.isTrue(db.state().sessions.has(session.id))
      assert.deepStrictEqual(Option.getOrThrow(yield* sessions.resolve(token)).subject, {
        kind: "user",
        userId: alice.id
      })
      const operator = yield* sessions.open({ kind: "operator" })
      yield* TestClock.adjust("13 hours")
      assert.isTrue(Option.isNone(yield* sessions.resolve(operator.token)))
      assert.isTrue(Option.isSome(yield* sessions.resolve(Redacted.value(token))))
      assert.strictEqual(yield* sessions.sweep, 1)
      yield* sessions.close(token)
      assert.isTrue(Option.isNone(yield* sessions.resolve(token)))
      assert.isTrue(Option.isNone(yield* sessions.resolve("forged")))
    }).pipe(Effect.provide(layerMemory))
  )
})

describe("Notifications", () => {
  it.effect("outbox events are claimed once per lease, retried with backoff, then given up", () =>
    Effect.gen(function* () {
      const notifications = yield* Notifications
      const topups = yield* TopupService
      const alice = yield* signUp()
      const t = yield* topups.create(alice.id, 5_000)
      yield* topups.approve(t.id)
      const [event] = yield* notifications.claim(10)
      assert.deepStrictEqual([event?.kind, event?.userId, event?.payload["topupId"]], ["topup.paid", alice.id, t.id])
      assert.strictEqual((yield* notifications.claim(10)).length, 0)
      yield* TestClock.adjust("61 seconds")
      const [reclaimed] = yield* notifications.claim(10)
      assert.strictEqual(reclaimed?.id, event?.id)
      let current = reclaimed!
      for (let i = 1; i < MAX_DELIVERY_ATTEMPTS; i++) {
        yield* notifications.failed(current, "push service 503")
        yield* TestClock.adjust("2 hours")
        current = (yield* notifications.claim(10))[0]!
        assert.strictEqual(current.attempts, i)
      }
      yield* notifications.failed(current, "push service 503")
      yield* TestClock.adjust("2 hours")
      assert.strictEqual((yield* notifications.claim(10)).length, 0)
      assert.strictEqual((yield* MemoryDb).state().outbox.get(current.id)?.status, "failed")
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect("delivered events are not claimed again; push subscriptions and bot updates", () =>
    Effect.gen(function* () {
      const notifications = yield* Notifications
      const topups = yield* TopupService
      const alice = yield* signUp()
      const t = yield* topups.create(alice.id, 5_000)
      yield* topups.reject(t.id)
      const [event] = yield* notifications.claim(10)
      yield* notifications.delivered(event!)
      yield* TestClock.adjust("2 minutes")
      assert.strictEqual((yield* notifications.claim(10)).length, 0)

      const sub = {
        endpoint: "https://fcm.googleapis.com/fcm/send/abc",
        keys: { p256dh: P256, auth: "xyz" },
        expirationTime: null
      }
      assert.strictEqual((yield* Effect.flip(notifications.subscribePush(alice.id, sub))).reason, "KeysInvalid")
      yield* notifications.subscribePush(alice.id, { ...sub, keys: { p256dh: P256, auth: AUTH } })
      yield* notifications.subscribePush(alice.id, { ...sub, keys: { p256dh: P256, auth: AUTH2 } })
      const subs = yield* notifications.pushSubscriptions(alice.id)
      assert.deepStrictEqual(
        subs.map((s) => [s.endpoint, s.auth]),
        [["https://fcm.googleapis.com/fcm/send/abc", AUTH2]]
      )
      assert.strictEqual(
        (yield* Effect.flip(notifications.subscribePush(alice.id, { endpoint: "x" })))._tag,
        "PushSubscriptionInvalid"
      )
      assert.strictEqual(
        (yield* Effect.flip(notifications.subscribePush(alice.id, { ...sub, endpoint: "javascript:alert(1)" })))._tag,
        "PushSubscriptionInvalid"
      )
      yield* notifications.dropPushEndpoint(sub.endpoint)
      assert.strictEqual((yield* notifications.pushSubscriptions(alice.id)).length, 0)

      assert.isTrue(yield* notifications.firstSeenBotUpdate(1001))
      assert.isFalse(yield* notifications.firstSeenBotUpdate(1001))
      assert.isTrue(yield* notifications.firstSeenBotUpdate(1002))
    }).pipe(Effect.provide(layerMemory))
  )
})
