/**
 * Webhook event ids are opaque: drawn at random when the outbox event is written, so nothing about
 * the platform's volume shows through them, and stable for that event (retries, repeated fan-outs).
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import type { UserId } from "../src/ids.ts"
import { Outbox } from "../src/ports/Outbox.ts"
import { MemoryDb } from "../src/testing/MemoryDb.ts"
import { MemoryOutbox } from "../src/testing/MemoryOutbox.ts"
import { newWebhookEventId } from "../src/webhooks/WebhookEventId.ts"
import { webhookEventsOf } from "../src/webhooks/WebhookEvents.ts"

const Outboxes = MemoryOutbox.pipe(Layer.provideMerge(MemoryDb.layer))

describe("webhook event ids", () => {
  it.effect("are evt_ and 22 base62 characters", () =>
    Effect.gen(function* () {
      for (let i = 0; i < 50; i++) assert.match(yield* newWebhookEventId, /^evt_[0-9A-Za-z]{22}$/)
    })
  )

  it.effect("1000 events: no two ids equal, none a sequence number, not in creation order", () =>
    Effect.gen(function* () {
      const outbox = yield* Outbox
      const ids: Array<string> = []
      for (let i = 0; i < 1000; i++) {
        const event = yield* outbox.add(
          { kind: "topup.paid", userId: 1 as UserId, payload: { topupId: i, amountUzs: 5000, balanceUzs: 5000 } },
          new Date(i)
        )
        const [webhook] = webhookEventsOf(event)
        // the same event always announces the same id (a retried fan-out adds no second delivery)
        assert.strictEqual(webhookEventsOf(event)[0]!.id, webhook!.id)
        ids.push(webhook!.id)
      }
      assert.strictEqual(new Set(ids).size, 1000)
      assert.isFalse(
        ids.some((id) => /^evt_\d+$/.test(id)),
        "no id is a sequence number"
      )
      const sorted = ids.toSorted()
      assert.notDeepEqual(ids, sorted, "creation order is not id order")
      assert.notDeepEqual(ids, sorted.toReversed(), "nor its reverse")
    }).pipe(Effect.provide(Outboxes))
  )

  it.effect("a refund event shares its failure's random id with a suffix", () =>
    Effect.gen(function* () {
      const outbox = yield* Outbox
      const event = yield* outbox.add(
        {
          kind: "order.failed",
          userId: 1 as UserId,
          payload: { orderId: 5, kind: "stars", recipient: "x", refundedUzs: 900 }
        },
        new Date(0)
      )
      const [failed, refunded] = webhookEventsOf(event)
      assert.strictEqual(failed!.id, event.webhookId)
      assert.strictEqual(refunded!.id, `${event.webhookId}_refund`)
    }).pipe(Effect.provide(Outboxes))
  )
})
