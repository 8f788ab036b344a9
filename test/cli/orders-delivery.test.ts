/**
 * `resale orders show|list` state a completed order's delivery: paid on its own evidence and not
 * confirmed by Fragment reads so, never as a plain delivery.
 */
import { assert, layer } from "@effect/vitest"
import { OrderService } from "@resale/core/orders/OrderService.ts"
import { Effect, Option } from "effect"
import { cli, CliTestLayer, fund, json, seedUser } from "./support/CliHarness.ts"

layer(CliTestLayer, { timeout: "60 seconds", excludeTestServices: true })(
  "resale orders and the delivery mark",
  (it) => {
    it.effect("show and list say paid, delivery not confirmed by Fragment; --json carries the mark", () =>
      Effect.gen(function* () {
        const cat = yield* seedUser("cat_delivery")
        yield* fund(cat.id, 100_000)
        const service = yield* OrderService
        const order = yield* service
          .create(cat.id, { kind: "stars", recipient: "evidence_only", stars: 100 })
          .pipe(Effect.orDie)
        assert.strictEqual(Option.getOrThrow(yield* service.claimNext).id, order.id)
        yield* service
          .complete(order.id, {
            txId: "cli-tx-9",
            fragmentRef: "CLIREF9",
            unconfirmed: "Paid to the marketplace with Ref#CLIREF9"
          })
          .pipe(Effect.orDie)

        const shown = yield* cli(["orders", "show", String(order.id)])
        assert.strictEqual(shown.code, 0, shown.stderr)
        assert.match(shown.stdout, /Delivery:\s+paid, delivery not confirmed by Fragment/)
        assert.include(shown.stdout, "Ref#CLIREF9")
        const listed = yield* cli(["orders", "list", "--status", "completed"])
        assert.include(listed.stdout, "completed (paid, delivery unconfirmed)")
        const asJson = json(yield* cli(["orders", "show", String(order.id), "--json"]))
        assert.strictEqual(asJson.delivery, "paid_unconfirmed")
      })
    )
  }
)
