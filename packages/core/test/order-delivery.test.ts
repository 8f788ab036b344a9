import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { completionOf, deliveredByReceipt } from "../src/orders/FulfilmentOutcome.ts"
import { OrderService } from "../src/orders/OrderService.ts"
import { fund, signUp } from "../src/testing/fixtures.ts"
import { layerMemory } from "../src/testing/MemoryPorts.ts"
import { MemoryDb } from "../src/testing/MemoryDb.ts"
import { renderEvent } from "../src/outbox/Notices.ts"
import { webhookEventsOf } from "../src/webhooks/WebhookEvents.ts"

const receipt = { txHash: "a1b2", ref: "kpJ55h3BW" }
const note = "Paid to the marketplace: tx a1b2 ... delivery not confirmed (the session moved on)"

describe("order delivery mark", () => {
  it("a receipt Fragment confirmed completes `confirmed`; one settled on its own evidence carries the evidence", () => {
    const confirmed = deliveredByReceipt({ ...receipt, delivery: "delivered", deliveryNote: null })
    assert.deepStrictEqual(confirmed, { _tag: "Delivered", txId: "a1b2", ref: "kpJ55h3BW" })
    const paid = deliveredByReceipt({ ...receipt, delivery: "paid", deliveryNote: note })
    assert.deepStrictEqual(paid, { _tag: "Delivered", txId: "a1b2", ref: "kpJ55h3BW", unconfirmed: note })
    if (paid._tag !== "Delivered") return assert.fail("not delivered")
    assert.deepStrictEqual(completionOf(paid), { txId: "a1b2", fragmentRef: "kpJ55h3BW", unconfirmed: note })
  })

  it.effect("complete marks the order `paid_unconfirmed` with its evidence, or `confirmed`; not completed = null", () =>
    Effect.gen(function* () {
      const orders = yield* OrderService
      const alice = yield* signUp()
      yield* fund(alice, 100_000)
      const first = yield* orders.create(alice.id, { kind: "stars", recipient: "durov", stars: 50 })
      const second = yield* orders.create(alice.id, { kind: "stars", recipient: "durov", stars: 60 })
      assert.isNull(first.delivery)
      assert.strictEqual(Option.getOrThrow(yield* orders.claimNext).id, first.id)
      const paid = deliveredByReceipt({ ...receipt, delivery: "paid", deliveryNote: note })
      if (paid._tag !== "Delivered") return assert.fail("not delivered")
      const settled = yield* orders.complete(first.id, completionOf(paid))
      assert.deepStrictEqual(
        [settled.status, settled.delivery, settled.txId, settled.fragmentRef],
        ["completed", "paid_unconfirmed", "a1b2", "kpJ55h3BW"]
      )
      assert.deepStrictEqual(settled.evidence, {
        txHash: "a1b2",
        ref: "kpJ55h3BW",
        chainState: "done",
        answers: [note]
      })
      // The shopper's notice says sent, paid on chain with its reference (not "delivered", and not the
      // operators' "not confirmed"); the integrator's webhook carries the delivery mark and the Ref#.
      const event = [...(yield* MemoryDb).state().outbox.values()].find((e) => e.kind === "order.completed")!
      assert.include(renderEvent(event).text, "was sent: paid on chain, reference Ref#kpJ55h3BW.")
      assert.notInclude(renderEvent(event).text, "was delivered")
      assert.notInclude(renderEvent(event).text, "not confirmed")
      assert.strictEqual(webhookEventsOf(event)[0]?.data["delivery"], "paid_unconfirmed")
      assert.strictEqual(webhookEventsOf(event)[0]?.data["fragment_ref"], "kpJ55h3BW")
      yield* orders.claimNext
      const delivered = yield* orders.complete(second.id, { txId: "c3d4" })
      assert.deepStrictEqual([delivered.delivery, delivered.evidence], ["confirmed", null])
    }).pipe(Effect.provide(layerMemory))
  )

  it.effect("an operator's mark-done is a confirmation", () =>
    Effect.gen(function* () {
      const orders = yield* OrderService
      const alice = yield* signUp()
      yield* fund(alice, 200_000)
      const order = yield* orders.create(alice.id, { kind: "premium", recipient: "durov", months: 3 })
      assert.strictEqual((yield* orders.markDone(order.id, "checked on Fragment")).delivery, "confirmed")
    }).pipe(Effect.provide(layerMemory))
  )
})
