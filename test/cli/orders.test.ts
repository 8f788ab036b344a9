import { assert, layer } from "@effect/vitest"
import type { UserId } from "@resale/core/ids.ts"
import { Balances } from "@resale/core/ledger/Balances.ts"
import { OrderService } from "@resale/core/orders/OrderService.ts"
import { Effect } from "effect"
import { cli, CliTestLayer, fund, json, seedUser } from "./support/CliHarness.ts"

const operator = { kind: "operator" as const }
const balance = (userId: UserId) => Balances.use((b) => b.balance(userId))

/** A stars order paid from the balance (230 UZS a star by default: 100 stars = 23 000 UZS). */
const starsOrder = (userId: UserId, recipient: string, stars = 100) =>
  OrderService.use((o) => o.create(userId, { kind: "stars", recipient, stars })).pipe(Effect.orDie)

/** An order the worker gave up on: failed and refunded. */
const failedOrder = (userId: UserId, recipient: string) =>
  Effect.gen(function* () {
    const order = yield* starsOrder(userId, recipient)
    return yield* OrderService.use((o) => o.fail(order.id, "marketplace refused")).pipe(Effect.orDie)
  })

layer(CliTestLayer, { timeout: "60 seconds", excludeTestServices: true })(
  "resale orders (in process, real PostgreSQL)",
  (it) => {
    it.effect("list filters by status, kind and user; show prints one order", () =>
      Effect.gen(function* () {
        const ann = yield* seedUser("ann_orders")
        yield* fund(ann.id, 500_000)
        const stars = yield* starsOrder(ann.id, "friend_one")
        const premium = yield* OrderService.use((o) =>
          o.create(ann.id, { kind: "premium", recipient: "friend_two", months: 6 })
        ).pipe(Effect.orDie)
        const failed = yield* failedOrder(ann.id, "friend_three")

        const byKind = json(yield* cli(["orders", "list", "--kind", "premium", "--user", "@ann_orders", "--json"]))
        assert.deepStrictEqual(
          byKind.orders.map((o: { order_id: number }) => o.order_id),
          [premium.id]
        )
        // The item as the API names it: kind and the premium `duration` (months).
        assert.deepStrictEqual([byKind.orders[0].kind, byKind.orders[0].duration], ["premium", 6])

        const byStatus = json(yield* cli(["orders", "list", "--status", "failed", "--json"]))
        assert.deepStrictEqual(
          byStatus.orders.map((o: { order_id: number }) => o.order_id),
          [failed.id]
        )

        const table = yield* cli(["orders", "list", "--user", String(ann.id)])
        assert.strictEqual(table.code, 0)
        assert.match(
          table.stdout,
          new RegExp(`^\\s*${stars.id}\\s+${ann.id}\\s+@friend_one\\s+100 stars\\s+23 000\\s+queued`, "m")
        )
        assert.include(table.stdout, "3 orders")

        const shown = yield* cli(["orders", "show", String(failed.id)])
        assert.strictEqual(shown.code, 0)
        assert.match(shown.stdout, /Status:\s+failed/)
        assert.match(shown.stdout, /Last error:\s+marketplace refused/)

        const missing = yield* cli(["orders", "show", "424242", "--json"])
        assert.strictEqual(missing.code, 1)
        assert.deepStrictEqual(json(missing), {
          ok: false,
          code: "OrderNotFound",
          message: "Order #424242 does not exist."
        })
      })
    )

    it.effect("retry queues a failed order and charges it again; retrying a queued order is refused", () =>
      Effect.gen(function* () {
        const bob = yield* seedUser("bob_orders")
        yield* fund(bob.id, 50_000)
        const failed = yield* failedOrder(bob.id, "friend_four")
        assert.strictEqual(yield* balance(bob.id), 50_000)

        const run = yield* cli(["orders", "retry", String(failed.id), "--yes", "--json"])
        assert.strictEqual(run.code, 0, run.stderr)
        assert.strictEqual(json(run).status, "queued")
        assert.strictEqual(json(run).charge_seq, 1)
        assert.strictEqual(yield* balance(bob.id), 50_000 - 23_000)

        const again = yield* cli(["orders", "retry", String(failed.id), "--yes"])
        assert.strictEqual(again.code, 1)
        assert.include(again.stderr, `Order #${failed.id} is queued; it cannot be retried.`)
        assert.strictEqual(yield* balance(bob.id), 27_000)
      })
    )

    it.effect("retry of a failed order whose owner cannot pay fails with the balance in the message", () =>
      Effect.gen(function* () {
        const cat = yield* seedUser("cat_orders")
        yield* fund(cat.id, 23_000)
        const failed = yield* failedOrder(cat.id, "friend_five")
        yield* Balances.use((b) =>
          b.adjust({ userId: cat.id, amount: -20_000, reason: "chargeback", key: "cat-chargeback" })
        ).pipe(Effect.orDie)

        const run = yield* cli(["orders", "retry", String(failed.id), "--yes"])
        assert.strictEqual(run.code, 1)
        assert.include(run.stderr, `User #${cat.id} has 3 000 UZS; 23 000 UZS are needed.`)
        assert.strictEqual(
          (yield* OrderService.use((o) => o.find(operator, failed.id)).pipe(Effect.orDie)).status,
          "failed"
        )
      })
    )

    it.effect("mark-done completes an order with its tx id; a completed order cannot be marked again", () =>
      Effect.gen(function* () {
        const dan = yield* seedUser("dan_orders")
        yield* fund(dan.id, 100_000)
        const order = yield* starsOrder(dan.id, "friend_six")

        const run = yield* cli(["orders", "mark-done", String(order.id), "--tx-id", "manual-ref-77", "--yes", "--json"])
        assert.strictEqual(run.code, 0, run.stderr)
        assert.strictEqual(json(run).status, "completed")
        assert.strictEqual(json(run).tx_id, "manual-ref-77")
        assert.strictEqual(yield* balance(dan.id), 100_000 - 23_000)

        const again = yield* cli(["orders", "mark-done", String(order.id), "--yes"])
        assert.strictEqual(again.code, 1)
        assert.include(again.stderr, `Order #${order.id} is completed; it cannot be marked done.`)
      })
    )

    it.effect("an order's error text (from the marketplace, often echoing the shopper) is printed escaped", () =>
      Effect.gen(function* () {
        const zed = yield* seedUser("zed_orders")
        yield* fund(zed.id, 30_000)
        const order = yield* starsOrder(zed.id, "friend_eight")
        yield* OrderService.use((o) => o.fail(order.id, "refused: \x1b]0;pwned\x07\x1b[2K\r\x1b[32mOK")).pipe(
          Effect.orDie
        )
        const shown = yield* cli(["orders", "show", String(order.id)])
        assert.strictEqual(shown.code, 0, shown.stderr)
        assert.notInclude(shown.stdout, "\x1b")
        assert.notInclude(shown.stdout, "\x07")
        assert.include(shown.stdout, "refused: \\x1b]0;pwned\\x07\\x1b[2K\\r\\x1b[32mOK")
      })
    )

    it.effect("bad flag values, and no confirmation without a terminal, are usage errors", () =>
      Effect.gen(function* () {
        const badKind = yield* cli(["orders", "list", "--kind", "ton"])
        assert.strictEqual(badKind.code, 2)
        assert.include(badKind.stderr, "Allowed choices are stars, premium, gift")
        const emptyTx = yield* cli(["orders", "mark-done", "1", "--tx-id", "  ", "--yes"])
        assert.strictEqual(emptyTx.code, 2)
        assert.include(emptyTx.stderr, "--tx-id must not be empty")

        const eve = yield* seedUser("eve_orders")
        yield* fund(eve.id, 30_000)
        const failed = yield* failedOrder(eve.id, "friend_seven")
        const unconfirmed = yield* cli(["orders", "retry", String(failed.id)])
        assert.strictEqual(unconfirmed.code, 2)
        assert.include(unconfirmed.stderr, `refusing to retry order #${failed.id} without confirmation`)
        assert.strictEqual(yield* balance(eve.id), 30_000)
      })
    )
  }
)
