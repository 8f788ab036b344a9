import { assert, layer } from "@effect/vitest"
import { CoreServices } from "@resale/core/CoreServices.ts"
import type { OrderId } from "@resale/core/ids.ts"
import { MAX_ATTEMPTS } from "@resale/core/orders/OrderRules.ts"
import { OrderService } from "@resale/core/orders/OrderService.ts"
import { Orders } from "@resale/core/ports/Orders.ts"
import { IsolatedPostgres } from "@resale/store/testing/IsolatedPostgres.ts"
import { Effect, Layer, Option } from "effect"
import { DatabasePing } from "../src/server/HttpApp.ts"
import { adminSignIn, call, signIn, TEST_ADMIN_TOKEN } from "./Client.ts"
import { makeTestServer, TestServer } from "./TestServer.ts"

// One database for the server and for this file's worker-side calls (the same layer, built once).
const Store = IsolatedPostgres.layerStore
const World = Layer.mergeAll(
  makeTestServer(Store, {}, DatabasePing.layer as never),
  CoreServices.pipe(Layer.provideMerge(Store))
)

interface AdminOrder {
  readonly order_id: number
  readonly status: string
  readonly attempts: number
  readonly error: string | null
  readonly next_attempt_at: string | null
}

const adminOrder = (url: string, cookie: string, orderId: number) =>
  Effect.gen(function* () {
    const answer = yield* call(url, "/v2/admin/orders", { cookie })
    assert.strictEqual(answer.status, 200, answer.text)
    const found = (answer.json.orders as ReadonlyArray<AdminOrder>).find((o) => o.order_id === orderId)
    assert.isDefined(found, `order ${orderId} is not in the admin list`)
    return found!
  })

layer(World, { timeout: "60 seconds", excludeTestServices: true })("admin order list", (it) => {
  it.effect("operators see a failed order's attempts and last error; a retry starts the count afresh", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const op = yield* adminSignIn(url)
      const cookie = yield* signIn(url, 96001, "attempts_user")
      const topup = (yield* call(url, "/v2/balance/top-up", { form: { amount_uzs: "100000" }, cookie })).json.topup
      const paid = yield* call(url, `/v2/api/admin/topups/${topup.topup_id}/mark-paid`, {
        method: "POST",
        headers: { "x-admin-token": TEST_ADMIN_TOKEN }
      })
      assert.strictEqual(paid.status, 200, paid.text)
      const key = (yield* call(url, "/v2/api-key/rotate", { method: "POST", cookie })).json.api_key as string
      const bought = yield* call(url, "/v2/api/stars/buy", {
        json: { username: "friend", amount: 50 },
        headers: { "x-api-key": key }
      })
      assert.strictEqual(bought.status, 200, bought.text)
      const orderId = bought.json.order.order_id as number

      const fresh = yield* adminOrder(url, op, orderId)
      assert.deepStrictEqual(
        [fresh.status, fresh.attempts, fresh.error, fresh.next_attempt_at],
        ["queued", 0, null, null]
      )

      // The worker's side: every attempt meets a transient marketplace failure until it gives up.
      const service = yield* OrderService
      const orders = yield* Orders
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
        const claimed = Option.getOrThrow(yield* service.claimNext)
        assert.strictEqual(claimed.id, orderId)
        const after = yield* service.defer(claimed.id, `Fragment unavailable: HTTP 502 (attempt ${attempt})`)
        if (attempt === 1) {
          const waiting = yield* adminOrder(url, op, orderId)
          assert.deepStrictEqual(
            [waiting.status, waiting.attempts, waiting.error],
            ["queued", 1, "Fragment unavailable: HTTP 502 (attempt 1)"]
          )
          assert.isAbove(Date.parse(waiting.next_attempt_at!), Date.now())
        }
        // Skip the backoff so the next claim finds it now.
        if (after.status === "queued")
          yield* orders.transition(after.id, ["queued"], "queued", { nextAttemptAt: null }, new Date())
      }

      const failed = yield* adminOrder(url, op, orderId)
      assert.deepStrictEqual([failed.status, failed.attempts, failed.next_attempt_at], ["failed", MAX_ATTEMPTS, null])
      assert.strictEqual(
        failed.error,
        `gave up after ${MAX_ATTEMPTS} attempts: Fragment unavailable: HTTP 502 (attempt ${MAX_ATTEMPTS})`
      )
      // The customer's own list keeps its shape: the error, not the operator's counters.
      const own = (yield* call(url, "/v2/orders/list", { cookie })).json.orders.find(
        (o: { order_id: number }) => o.order_id === orderId
      )
      assert.strictEqual(own.error, failed.error)
      assert.notProperty(own, "attempts")

      const retried = yield* call(url, `/v2/admin/orders/${orderId}/retry`, { method: "POST", cookie: op })
      assert.strictEqual(retried.status, 200, retried.text)
      const requeued = yield* adminOrder(url, op, orderId)
      assert.deepStrictEqual([requeued.status, requeued.attempts, requeued.error], ["queued", 0, null])
      assert.strictEqual((yield* service.find({ kind: "operator" }, orderId as OrderId)).chargeSeq, 1)
    })
  )
})
