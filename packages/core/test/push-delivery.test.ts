/**
 * One push service that keeps failing (after the client's capped retries) gives up its own
 * subscription for the event; the other subscriptions and the event are not held by it.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { NotificationDelivery } from "../src/outbox/NotificationDelivery.ts"
import { Notifications } from "../src/outbox/Notifications.ts"
import { Notifier, NotifierError } from "../src/ports/Notifier.ts"
import { MemoryDb } from "../src/testing/MemoryDb.ts"
import { signUp } from "../src/testing/fixtures.ts"
import { layerMemory } from "../src/testing/MemoryPorts.ts"
import { TopupService } from "../src/topups/TopupService.ts"

const P256 = "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM"
const AUTH = "tBHItJI5svbpez7KI4CCXg"

describe("push delivery per subscription", () => {
  it.effect("a failing push service does not hold the event or the other subscriptions", () => {
    const sent: Array<string> = []
    const notifier = Layer.succeed(Notifier)(
      Notifier.of({
        push: (target) =>
          target.endpoint.endsWith("/slow")
            ? Effect.fail(
                new NotifierError({ channel: "push", reason: "Unavailable", message: "push service answered 503" })
              )
            : Effect.sync(() => void sent.push(target.endpoint)),
        botMessage: () => Effect.void
      })
    )
    return Effect.gen(function* () {
      const notifications = yield* Notifications
      const alice = yield* signUp()
      for (const name of ["slow", "a", "b"]) {
        yield* notifications.subscribePush(alice.id, {
          endpoint: `https://fcm.googleapis.com/fcm/send/${name}`,
          keys: { p256dh: P256, auth: AUTH }
        })
      }
      const topups = yield* TopupService
      const topup = yield* topups.create(alice.id, 10_000)
      yield* topups.reject(topup.id, "no payment")
      assert.strictEqual(yield* NotificationDelivery.use((d) => d.runOnce), 1)
      assert.deepStrictEqual(sent.toSorted(), [
        "https://fcm.googleapis.com/fcm/send/a",
        "https://fcm.googleapis.com/fcm/send/b"
      ])
      const events = [...(yield* MemoryDb).state().outbox.values()]
      assert.deepStrictEqual(
        events.map((e) => e.status),
        ["delivered"]
      )
      // The subscription stays: the next event tries it again.
      assert.strictEqual((yield* notifications.pushSubscriptions(alice.id)).length, 3)
    }).pipe(
      Effect.provide(NotificationDelivery.layer.pipe(Layer.provideMerge(notifier), Layer.provideMerge(layerMemory)))
    )
  })
})
