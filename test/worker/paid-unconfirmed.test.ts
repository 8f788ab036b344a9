/**
 * An order paid on chain that Fragment never confirms (its page keeps the invoice "processing"), on
 * real parts (PostgreSQL, the TON VM, the Fragment simulator): the reconciler settles its payment on
 * the order's own evidence, and the order completes with delivery `paid_unconfirmed` (never
 * `confirmed`), its evidence kept, charged once, and so it reads in the order JSON of the API.
 */
import { assert, layer } from "@effect/vitest"
import type { OrderId } from "@resale/core/ids.ts"
import { OrderService } from "@resale/core/orders/OrderService.ts"
import { Orders } from "@resale/core/ports/Orders.ts"
import * as Dto from "@resale/wire/Dtos.ts"
import { adminOrderOut, orderOut } from "@resale/http/handlers/Wire.ts"
import { FragmentSandbox } from "@resale/marketplace"
import { IsolatedPostgres } from "@resale/store/testing/IsolatedPostgres.ts"
import { Fulfilment } from "@resale/worker/fulfilment/Fulfilment.ts"
import { Duration, Effect, Layer, Schema } from "effect"
import { fundedUser, orderEntries, SandboxWorld, workerOver } from "./support/WorkerHarness.ts"

const Stack = workerOver(Layer.mergeAll(SandboxWorld, IsolatedPostgres.layerStore), {
  deliveryWait: Duration.seconds(1),
  reconcileDelay: Duration.millis(100),
  unknownRetryMax: Duration.millis(400),
  attentionAttempts: 50
})

const reload = (id: OrderId) => OrderService.use((o) => o.find({ kind: "operator" }, id)).pipe(Effect.orDie)
const dueNow = (id: OrderId) =>
  Orders.use((orders) => orders.transition(id, ["queued"], "queued", { nextAttemptAt: null }, new Date())).pipe(
    Effect.orDie
  )

layer(Stack, { timeout: "90 seconds", excludeTestServices: true })("an order Fragment never confirms", (it) => {
  it.effect("completes as paid with delivery not confirmed, on its own evidence, charged once", () =>
    Effect.gen(function* () {
      const fulfilment = yield* Fulfilment
      const { control } = yield* FragmentSandbox
      const user = yield* fundedUser(1_000_000)
      control.set({ neverFinish: true })
      const order = yield* OrderService.use((o) =>
        o.create(user.id, { kind: "stars", recipient: "never_confirmed", stars: 70 })
      )

      // Paid on chain, Fragment's page still says "processing": open, back in the queue.
      assert.isTrue(yield* fulfilment.runOnce)
      const open = yield* reload(order.id)
      assert.deepStrictEqual([open.status, open.delivery], ["queued", null])
      // The next attempt finds the payment made and settles it on its own evidence (paid on chain, accepted).
      let settled = yield* reload(order.id)
      for (let attempt = 0; attempt < 5 && settled.status !== "completed"; attempt++) {
        if (settled.status === "queued") yield* dueNow(order.id)
        yield* fulfilment.runOnce
        settled = yield* reload(order.id)
      }
      assert.deepStrictEqual(
        [settled.status, settled.delivery],
        ["completed", "paid_unconfirmed"],
        settled.lastError ?? ""
      )
      assert.isNotNull(settled.fragmentRef)
      assert.strictEqual(settled.evidence?.txHash, settled.txId)
      assert.strictEqual(settled.evidence?.ref, settled.fragmentRef)
      assert.include(settled.evidence?.answers.at(-1) ?? "", `Ref#${settled.fragmentRef}`)
      assert.include(settled.evidence?.answers.at(-1) ?? "", "delivery not confirmed")
      // One payment, one charge, never refunded.
      assert.deepStrictEqual(
        (yield* orderEntries(order.id)).map((e) => e.cause),
        ["order"]
      )
      assert.strictEqual(control.invoices().filter((i) => i.username === "never_confirmed").length, 1)

      // The order JSON integrators and operators get says so (encoded as the API answers it).
      const wire = Schema.encodeSync(Dto.Order)(orderOut(settled))
      assert.strictEqual(wire.delivery, "paid_unconfirmed")
      const admin = Schema.encodeSync(Dto.AdminOrder)(adminOrderOut(settled))
      assert.deepStrictEqual(
        [admin.status, admin.delivery, admin.evidence?.ref],
        ["completed", "paid_unconfirmed", settled.fragmentRef]
      )
      control.set({ neverFinish: false })
    })
  )
})
