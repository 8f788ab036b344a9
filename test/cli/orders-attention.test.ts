/**
 * `resale orders recheck|refund|mark-done` on orders whose delivery stayed unknown past the limit
 * (`needs_attention`): each through its core use case, a refund exactly once, wrong states refused.
 */
import { assert, layer } from "@effect/vitest"
import type { UserId } from "@resale/core/ids.ts"
import { Balances } from "@resale/core/ledger/Balances.ts"
import { OrderService } from "@resale/core/orders/OrderService.ts"
import { Orders } from "@resale/core/ports/Orders.ts"
import { Effect } from "effect"
import { cli, CliTestLayer, fund, json, seedUser } from "./support/CliHarness.ts"

const balance = (userId: UserId) => Balances.use((b) => b.balance(userId))

/** A charged stars order put straight into the operators' queue with its evidence (the worker's path is tested apart). */
const heldOrder = (userId: UserId, recipient: string) =>
  Effect.gen(function* () {
    const order = yield* OrderService.use((o) => o.create(userId, { kind: "stars", recipient, stars: 100 })).pipe(
      Effect.orDie
    )
    const now = new Date()
    return yield* Orders.use((orders) =>
      orders.transition(
        order.id,
        ["queued"],
        "needs_attention",
        {
          unknownSince: now,
          unknownAttempts: 8,
          lastError: "paid; Fragment has not confirmed delivery",
          fragmentRef: "CLIREF1",
          evidence: { txHash: "cli-tx-1", ref: "CLIREF1", chainState: "unknown", answers: ["not confirmed"] }
        },
        now
      )
    ).pipe(Effect.orDie)
  })

layer(CliTestLayer, { timeout: "60 seconds", excludeTestServices: true })(
  "resale orders for orders that need attention",
  (it) => {
    it.effect("list and show them with their evidence; refund once; a second refund and a recheck are refused", () =>
      Effect.gen(function* () {
        const ann = yield* seedUser("ann_attention")
        yield* fund(ann.id, 100_000)
        const held = yield* heldOrder(ann.id, "friend_attn")
        assert.strictEqual(yield* balance(ann.id), 77_000)

        const listed = json(yield* cli(["orders", "list", "--status", "needs_attention", "--json"]))
        assert.deepStrictEqual(
          listed.orders.map((o: { order_id: number }) => o.order_id),
          [held.id]
        )
        const shown = yield* cli(["orders", "show", String(held.id)])
        assert.match(shown.stdout, /Evidence tx:\s+cli-tx-1/)
        assert.match(shown.stdout, /Chain state:\s+unknown/)

        const refunded = yield* cli([
          "orders",
          "refund",
          String(held.id),
          "--note",
          "Fragment: not delivered",
          "--yes",
          "--json"
        ])
        assert.strictEqual(refunded.code, 0, refunded.stderr)
        assert.strictEqual(json(refunded).status, "failed")
        assert.strictEqual(yield* balance(ann.id), 100_000)

        const again = yield* cli(["orders", "refund", String(held.id), "--yes"])
        assert.strictEqual(again.code, 1)
        assert.include(again.stderr, `Order #${held.id} is failed; it cannot be failed or refunded.`)
        assert.strictEqual(yield* balance(ann.id), 100_000)
        const recheck = yield* cli(["orders", "recheck", String(held.id), "--yes"])
        assert.strictEqual(recheck.code, 1)
      })
    )

    it.effect("recheck queues it again at once; mark-done completes another with a reference, keeping the charge", () =>
      Effect.gen(function* () {
        const bob = yield* seedUser("bob_attention")
        yield* fund(bob.id, 100_000)
        const first = yield* heldOrder(bob.id, "friend_attn_two")
        const second = yield* heldOrder(bob.id, "friend_attn_three")

        const rechecked = yield* cli(["orders", "recheck", String(first.id), "--yes", "--json"])
        assert.strictEqual(rechecked.code, 0, rechecked.stderr)
        assert.deepStrictEqual(
          [json(rechecked).status, json(rechecked).unknown_checks, json(rechecked).next_attempt_at],
          ["queued", 0, null]
        )

        const done = yield* cli([
          "orders",
          "mark-done",
          String(second.id),
          "--tx-id",
          "Ref#CLIREF1 delivered",
          "--yes",
          "--json"
        ])
        assert.strictEqual(done.code, 0, done.stderr)
        assert.deepStrictEqual([json(done).status, json(done).tx_id], ["completed", "Ref#CLIREF1 delivered"])
        assert.strictEqual(yield* balance(bob.id), 100_000 - 2 * 23_000)
      })
    )
  }
)
