/**
 * Unknown outcomes end, on real parts (PostgreSQL, the TON VM, the Fragment simulator): an order paid
 * on chain whose delivery cannot be told (Fragment keeps the invoice processing, then answers only 403)
 * is checked again with backoff, then past the limit
 * waits in `needs_attention` with its evidence, the operators get a bot message, the worker leaves it
 * alone, and an operator's refund happens exactly once.
 */
import { assert, layer } from "@effect/vitest"
import type { OrderId } from "@resale/core/ids.ts"
import { OrderService } from "@resale/core/orders/OrderService.ts"
import { Notifier } from "@resale/core/ports/Notifier.ts"
import { Orders } from "@resale/core/ports/Orders.ts"
import { FragmentSandbox } from "@resale/marketplace"
import { IsolatedPostgres } from "@resale/store/testing/IsolatedPostgres.ts"
import { Fulfilment } from "@resale/worker/fulfilment/Fulfilment.ts"
import { NotificationSettingsLive } from "@resale/worker/WorkerLive.ts"
import { NotificationDelivery } from "@resale/core/outbox/NotificationDelivery.ts"
import { Duration, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { balanceAndEntries, fundedUser, orderEntries, SandboxWorld, workerOver } from "./support/WorkerHarness.ts"

const Stack = workerOver(Layer.mergeAll(SandboxWorld, IsolatedPostgres.layerStore), {
  deliveryWait: Duration.seconds(1),
  reconcileDelay: Duration.millis(100),
  unknownRetryMax: Duration.millis(400),
  attentionAfter: Duration.zero,
  attentionAttempts: 3,
  operatorChatIds: [4242]
})

/** The next attempt of the order now: its backoff is skipped (the delay itself is unit-tested with TestClock). */
const dueNow = (id: OrderId) =>
  Orders.use((orders) => orders.transition(id, ["queued"], "queued", { nextAttemptAt: null }, new Date())).pipe(
    Effect.orDie
  )

const reload = (id: OrderId) => OrderService.use((o) => o.find({ kind: "operator" }, id)).pipe(Effect.orDie)

layer(Stack, { timeout: "90 seconds", excludeTestServices: true })("orders whose delivery stays unknown", (it) => {
  it.effect("past the limit they wait for an operator, who is told, and whose refund happens exactly once", () =>
    Effect.gen(function* () {
      const fulfilment = yield* Fulfilment
      const { control } = yield* FragmentSandbox
      const user = yield* fundedUser(1_000_000)
      control.set({ neverFinish: true })
      const order = yield* OrderService.use((o) =>
        o.create(user.id, { kind: "stars", recipient: "never_confirmed", stars: 60 })
      )

      const seen: Array<string> = []
      for (let check = 1; check <= 3; check++) {
        assert.isTrue(
          yield* fulfilment.runOnce,
          `check ${check} claimed nothing after ${seen.join(",")} (${(yield* reload(order.id)).lastError})`
        )
        const after = yield* reload(order.id)
        seen.push(after.status)
        // Paid; from now on Fragment answers nothing but 403 (blocked), so delivery cannot be told.
        if (check === 1) control.set({ blocked: true })
        if (after.status === "queued") {
          assert.isAbove(after.nextAttemptAt!.getTime(), after.updatedAt.getTime())
          yield* dueNow(order.id)
        }
      }
      assert.deepStrictEqual(seen, ["queued", "queued", "needs_attention"])
      const held = yield* reload(order.id)
      assert.strictEqual(held.unknownAttempts, 3)
      assert.isNotNull(held.evidence)
      assert.strictEqual(held.evidence!.ref, held.fragmentRef)
      assert.isNotNull(held.evidence!.ref)
      assert.isNotNull(held.evidence!.chainState)
      assert.isAbove(held.evidence!.answers.length, 0)
      // Still charged, never refunded by the worker, and never picked up again.
      assert.deepStrictEqual(
        (yield* orderEntries(order.id)).map((e) => e.cause),
        ["order"]
      )
      assert.isFalse(yield* fulfilment.runOnce)

      // The operators' bot chat gets the message through the outbox.
      const sent: Array<{ chatId: number; text: string }> = []
      const Recording = Layer.succeed(Notifier)(
        Notifier.of({
          push: () => Effect.void,
          botMessage: (chatId, text) => Effect.sync(() => void sent.push({ chatId, text }))
        })
      )
      // `fresh`: not the worker's own (memoized) delivery over the silent notifier.
      yield* NotificationDelivery.use((d) => d.runOnce).pipe(
        Effect.provide(
          Layer.fresh(NotificationDelivery.layer).pipe(Layer.provide([Recording, NotificationSettingsLive]))
        )
      )
      const toOperators = sent.filter((m) => m.chatId === 4242)
      assert.strictEqual(toOperators.length, 1)
      assert.include(toOperators[0]!.text, `Order #${order.id} needs attention`)

      // The operator refunds it: one ledger entry, the balance whole again; a second refund is refused.
      const orders = yield* OrderService
      const refunded = yield* orders.refund(order.id, "Fragment support: not delivered")
      assert.strictEqual(refunded.status, "failed")
      const second = yield* Effect.flip(orders.refund(order.id, "again"))
      assert.strictEqual(second._tag, "OrderTransitionInvalid")
      assert.deepStrictEqual(
        (yield* orderEntries(order.id)).map((e) => e.cause),
        ["order", "refund"]
      )
      const money = yield* balanceAndEntries(user.id)
      assert.deepStrictEqual([money.balance, money.entries], [1_000_000, 1_000_000])
      const sql = yield* SqlClient
      const [events] = yield* sql<{ n: bigint }>`SELECT count(*) AS n FROM outbox_events WHERE kind = 'order.attention'`
      assert.strictEqual(Number(events?.n), 1)
      control.set({ neverFinish: false, blocked: false })
    })
  )
})
