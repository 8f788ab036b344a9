/**
 * The User, Dashboard and TopupStatus examples replayed (as example-replay.test.ts replays the others):
 * nodira bought the example order and has a top-up waiting, on a database of its own (a top-up's
 * payable amount is unique among recent ones).
 */
import { assert, layer } from "@effect/vitest"
import { CoreServices } from "@resale/core/CoreServices.ts"
import type { OrderId, UserId } from "@resale/core/ids.ts"
import { Balances } from "@resale/core/ledger/Balances.ts"
import { OrderService } from "@resale/core/orders/OrderService.ts"
import { IsolatedPostgres } from "@resale/store/testing/IsolatedPostgres.ts"
import { Effect, Layer } from "effect"
import { SCHEMA_EXAMPLES } from "../src/api/OpenApiExamples.ts"
import { DatabasePing } from "../src/server/HttpApp.ts"
import { call } from "./Client.ts"
import { setExamplePrices, signInAs } from "./ExampleAccounts.ts"
import { differences } from "./ExampleMatch.ts"
import { makeTestServer, TestServer } from "./TestServer.ts"

/** What the worker records for the documented completed order: its payment and Fragment's Ref#. */
const documentedOrder = SCHEMA_EXAMPLES["Order"] as { tx_id: string; fragment_ref: string }
const completedAsDocumented = { txId: documentedOrder.tx_id, fragmentRef: documentedOrder.fragment_ref }

const Store = IsolatedPostgres.layerStore
const World = Layer.mergeAll(
  makeTestServer(
    Store,
    { sandbox: false, botUsername: "resale_bot", paymentCard: "8600 1234 5678 9012" },
    DatabasePing.layer as never
  ),
  CoreServices.pipe(Layer.provideMerge(Store))
)

layer(World, { timeout: "120 seconds", excludeTestServices: true })("the account examples replayed", (it) => {
  it.effect("nodira's dashboard and top-up status equal their examples", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      yield* setExamplePrices(url)
      const user = SCHEMA_EXAMPLES["User"] as { telegram_id: number; username: string }
      const cookie = yield* signInAs(url, user.telegram_id, user.username)
      const userId = (yield* call(url, "/v2/dashboard", { cookie })).json.user.user_id as UserId
      yield* (yield* Balances)
        .adjust({ userId, amount: 150_000, reason: "example", key: "example-dashboard" })
        .pipe(Effect.orDie)
      const api = { "x-api-key": (yield* call(url, "/v2/api-key/rotate", { method: "POST", cookie })).json.api_key }
      const bought = yield* call(url, "/v2/api/stars/buy", { json: SCHEMA_EXAMPLES["StarsOrderRequest"], headers: api })
      const orders = yield* OrderService
      yield* orders.claimNext
      yield* orders.complete(bought.json.order.order_id as OrderId, completedAsDocumented)
      yield* call(url, "/v2/api/topups", { json: SCHEMA_EXAMPLES["TopupRequest"], headers: api })
      const dashboard = yield* call(url, "/v2/dashboard", { cookie })
      const status = yield* call(url, "/v2/balance/topup-status", { cookie })
      assert.deepStrictEqual(
        {
          Dashboard: differences(SCHEMA_EXAMPLES["Dashboard"], dashboard.json),
          TopupStatus: differences(SCHEMA_EXAMPLES["TopupStatus"], status.json)
        },
        { Dashboard: [], TopupStatus: [] }
      )
    })
  )
})
