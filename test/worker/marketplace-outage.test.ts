/**
 * What the marketplace's own failure reason means for an account order: a Fragment outage during the
 * quote (HTTP 5xx) retries the order later, nothing paid and nothing refunded; a refusal fails it and
 * refunds once. Real parts: the Fragment simulator behind the real adapter, the TON VM, PostgreSQL.
 */
import { assert, layer } from "@effect/vitest"
import type { OrderId } from "@resale/core/ids.ts"
import { OrderService } from "@resale/core/orders/OrderService.ts"
import { Orders } from "@resale/core/ports/Orders.ts"
import { FragmentSandbox } from "@resale/marketplace"
import { Fulfilment } from "@resale/worker/fulfilment/Fulfilment.ts"
import { Duration, Effect } from "effect"
import { balanceAndEntries, fundedUser, orderEntries, WorkerTestLayer } from "./support/WorkerHarness.ts"

const reload = (id: OrderId) => Effect.orDie(OrderService.use((orders) => orders.find({ kind: "operator" }, id)))

/** Skips an order's backoff, so the next `runOnce` claims it now. */
const dueNow = (id: OrderId) =>
  Orders.use((orders) => orders.transition(id, ["queued"], "queued", { nextAttemptAt: null }, new Date())).pipe(
    Effect.orDie
  )

layer(WorkerTestLayer({ deliveryWait: Duration.seconds(1) }), { timeout: "60 seconds", excludeTestServices: true })(
  "marketplace failures before payment",
  (it) => {
    it.effect(
      "a Fragment 5xx during the quote retries the order (no refund); once Fragment is back it is bought once",
      () =>
        Effect.gen(function* () {
          const orders = yield* OrderService
          const fulfilment = yield* Fulfilment
          const { control } = yield* FragmentSandbox
          const user = yield* fundedUser(1_000_000)
          const order = yield* orders.create(user.id, { kind: "stars", recipient: "outage_fan", stars: 60 })
          control.inject({ method: "initBuyStarsRequest", status: 502, times: 1 })

          assert.isTrue(yield* fulfilment.runOnce)
          const waiting = yield* reload(order.id)
          assert.strictEqual(waiting.status, "queued")
          assert.strictEqual(waiting.attempts, 1)
          assert.include(waiting.lastError ?? "", "MarketplaceRejected (Unavailable)")
          assert.include(waiting.lastError ?? "", "HTTP 502")
          assert.isTrue((waiting.nextAttemptAt?.getTime() ?? 0) > Date.now())
          assert.deepStrictEqual(
            (yield* orderEntries(order.id)).map((e) => e.cause),
            ["order"]
          )
          assert.isFalse(yield* fulfilment.runOnce, "the backoff holds it back")

          yield* dueNow(order.id)
          assert.isTrue(yield* fulfilment.runOnce)
          const done = yield* reload(order.id)
          assert.strictEqual(done.status, "completed")
          assert.match(done.txId ?? "", /^[0-9a-f]{64}$/)
          assert.deepStrictEqual(
            (yield* orderEntries(order.id)).map((e) => e.cause),
            ["order"]
          )
          const money = yield* balanceAndEntries(user.id)
          assert.strictEqual(money.balance, 1_000_000 - order.priceUzs)
          assert.strictEqual(money.entries, money.balance)
        })
    )

    it.effect("a refusal (Telegram user unknown to Fragment) fails the order and refunds it once", () =>
      Effect.gen(function* () {
        const orders = yield* OrderService
        const fulfilment = yield* Fulfilment
        const { control } = yield* FragmentSandbox
        const user = yield* fundedUser(1_000_000)
        control.unknownUser("nobody_there")
        const order = yield* orders.create(user.id, { kind: "stars", recipient: "nobody_there", stars: 60 })

        assert.isTrue(yield* fulfilment.runOnce)
        const failed = yield* reload(order.id)
        assert.strictEqual(failed.status, "failed")
        assert.include(failed.lastError ?? "", "MarketplaceRejected (RecipientNotFound)")
        assert.deepStrictEqual(
          (yield* orderEntries(order.id)).map((e) => e.cause),
          ["order", "refund"]
        )
        assert.strictEqual((yield* balanceAndEntries(user.id)).balance, 1_000_000)
        control.reset()
      })
    )
  }
)
