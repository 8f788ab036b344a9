import { Effect, Layer } from "effect"
import type { OutboxEventId } from "../ids.ts"
import type { NewOutboxEvent, OutboxEvent } from "../outbox/OutboxEvent.ts"
import { Outbox } from "../ports/Outbox.ts"
import { newWebhookEventId } from "../webhooks/WebhookEventId.ts"
import { MemoryDb, nextId } from "./MemoryDb.ts"

/** `Outbox` over the in-memory database. */
export const MemoryOutbox = Layer.effect(
  Outbox,
  Effect.gen(function* () {
    const db = yield* MemoryDb
    const patch = (id: OutboxEventId, f: (e: OutboxEvent) => OutboxEvent) =>
      db.read((s) => {
        const event = s.outbox.get(id)
        if (event !== undefined) s.outbox.set(id, f(event))
      })
    return Outbox.of({
      add: (event: NewOutboxEvent, now: Date) =>
        Effect.flatMap(newWebhookEventId, (webhookId) =>
          db.read((s) => {
            const created: OutboxEvent = {
              id: nextId(s, "outbox") as OutboxEventId,
              ...event,
              status: "pending",
              attempts: 0,
              lastError: null,
              availableAt: now,
              createdAt: now,
              deliveredAt: null,
              webhookId
            }
            s.outbox.set(created.id, created)
            return created
          })
        ),
      claim: (now, limit, leaseMs) =>
        db.read((s) =>
          [...s.outbox.values()]
            .filter((e) => e.status === "pending" && e.availableAt.getTime() <= now.getTime())
            .sort((a, b) => a.id - b.id)
            .slice(0, limit)
            .map((e) => {
              const claimed: OutboxEvent = { ...e, availableAt: new Date(now.getTime() + leaseMs) }
              s.outbox.set(e.id, claimed)
              return claimed
            })
        ),
      markDelivered: (id, now) => patch(id, (e) => ({ ...e, status: "delivered", deliveredAt: now })),
      markFailed: (id, error, retryAt) =>
        patch(id, (e) => ({
          ...e,
          attempts: e.attempts + 1,
          lastError: error,
          ...(retryAt === null ? { status: "failed" as const } : { availableAt: retryAt })
        }))
    })
  })
)
