/**
 * The operators' queue over HTTP: an order whose delivery stayed unknown past the limit is listed with
 * its evidence; `recheck` queues it again, `refund` fails and refunds it exactly once; any other state
 * answers 409.
 */
import { assert, layer } from "@effect/vitest"
import { CoreServices } from "@resale/core/CoreServices.ts"
import { Accounts } from "@resale/core/accounts/Accounts.ts"
import type { UserId } from "@resale/core/ids.ts"
import { Balances } from "@resale/core/ledger/Balances.ts"
import { OrderService } from "@resale/core/orders/OrderService.ts"
import { Orders } from "@resale/core/ports/Orders.ts"
import { IsolatedPostgres } from "@resale/store/testing/IsolatedPostgres.ts"
import { Effect, Layer } from "effect"
import { DatabasePing } from "../src/server/HttpApp.ts"
import { adminSignIn, call } from "./Client.ts"
import { makeTestServer, TestServer } from "./TestServer.ts"

const Store = IsolatedPostgres.layerStore
const World = Layer.mergeAll(
  makeTestServer(Store, {}, DatabasePing.layer as never),
  CoreServices.pipe(Layer.provideMerge(Store))
)

let telegramId = 97_000
/** A user holding 100 000 so'm with a charged stars order (23 000) waiting in the operators' queue. */
const heldOrder = Effect.gen(function* () {
  const user = yield* (yield* Accounts).signIn({
    telegramId: ++telegramId,
    username: `attn${telegramId}`,
    firstName: null,
    photoUrl: null
  })
  yield* (yield* Balances)
    .adjust({ userId: user.id, amount: 100_000, reason: "test", key: `attn-${telegramId}` })
    .pipe(Effect.orDie)
  const order = yield* (yield* OrderService)
    .create(user.id, { kind: "stars", recipient: "friend", stars: 100 })
    .pipe(Effect.orDie)
  const now = new Date()
  yield* (yield* Orders)
    .transition(
      order.id,
      ["queued"],
      "needs_attention",
      {
        unknownSince: now,
        unknownAttempts: 8,
        lastError: "paid; Fragment has not confirmed delivery",
        evidence: { txHash: "http-tx-1", ref: "HTTPREF", chainState: "unknown", answers: ["pending", "pending"] }
      },
      now
    )
    .pipe(Effect.orDie)
  return { user, order }
})

const balanceOf = (userId: UserId) => Balances.use((b) => b.balance(userId))

layer(World, { timeout: "60 seconds", excludeTestServices: true })(
  "operators settle orders that need attention",
  (it) => {
    it.effect("listed with evidence; refunded once (a second refund and a recheck answer 409)", () =>
      Effect.gen(function* () {
        const { url } = yield* TestServer
        const op = yield* adminSignIn(url)
        const { order, user } = yield* heldOrder

        const list = yield* call(url, "/v2/admin/orders", { cookie: op })
        const listed = list.json.orders.find((o: { order_id: number }) => o.order_id === order.id)
        assert.deepStrictEqual(
          [listed.status, listed.unknown_checks, listed.evidence],
          [
            "needs_attention",
            8,
            { tx_hash: "http-tx-1", ref: "HTTPREF", chain_state: "unknown", answers: ["pending", "pending"] }
          ]
        )

        const refund = yield* call(url, `/v2/admin/orders/${order.id}/refund`, {
          method: "POST",
          cookie: op,
          form: { note: "not delivered" }
        })
        assert.strictEqual(refund.status, 200, refund.text)
        assert.strictEqual(refund.json.status, "failed")
        assert.strictEqual(yield* balanceOf(user.id), 100_000)

        const again = yield* call(url, `/v2/admin/orders/${order.id}/refund`, {
          method: "POST",
          cookie: op,
          form: { note: "" }
        })
        assert.strictEqual(again.status, 409, again.text)
        assert.strictEqual(yield* balanceOf(user.id), 100_000)
        const recheck = yield* call(url, `/v2/admin/orders/${order.id}/recheck`, { method: "POST", cookie: op })
        assert.strictEqual(recheck.status, 409, recheck.text)
      })
    )

    it.effect("recheck queues it again at once; a shopper cannot call either action", () =>
      Effect.gen(function* () {
        const { url } = yield* TestServer
        const op = yield* adminSignIn(url)
        const { order, user } = yield* heldOrder
        const anonymous = yield* call(url, `/v2/admin/orders/${order.id}/refund`, {
          method: "POST",
          form: { note: "" }
        })
        assert.isTrue(anonymous.status === 401 || anonymous.status === 403, anonymous.text)

        const recheck = yield* call(url, `/v2/admin/orders/${order.id}/recheck`, { method: "POST", cookie: op })
        assert.strictEqual(recheck.status, 200, recheck.text)
        assert.strictEqual(recheck.json.status, "queued")
        const queued = yield* (yield* OrderService).find({ kind: "operator" }, order.id)
        assert.deepStrictEqual([queued.status, queued.unknownAttempts, queued.nextAttemptAt], ["queued", 0, null])
        assert.strictEqual(yield* balanceOf(user.id), 77_000)
        const refund = yield* call(url, `/v2/admin/orders/${order.id}/refund`, {
          method: "POST",
          cookie: op,
          form: { note: "" }
        })
        assert.strictEqual(refund.status, 409, refund.text)
      })
    )
  }
)
