/**
 * The operators' examples replayed on a database of their own (the operators' pages list the whole
 * shop): nodira's card top-up credited, a receipt of the same amount awaiting review, her example
 * order paid but its delivery unconfirmed, then two pending top-ups and three open tickets for the
 * home page's counts. Compared as example-replay.test.ts compares.
 */
import { assert, layer } from "@effect/vitest"
import { CoreServices } from "@resale/core/CoreServices.ts"
import type { OrderId, UserId } from "@resale/core/ids.ts"
import { Balances } from "@resale/core/ledger/Balances.ts"
import { Orders } from "@resale/core/ports/Orders.ts"
import { IsolatedPostgres } from "@resale/store/testing/IsolatedPostgres.ts"
import { Effect, Layer } from "effect"
import { REQUEST_EXAMPLES, SCHEMA_EXAMPLES } from "../src/api/OpenApiExamples.ts"
import { DatabasePing } from "../src/server/HttpApp.ts"
import { call, PNG, TEST_ADMIN_TOKEN } from "./Client.ts"
import { setExamplePrices, signInAs } from "./ExampleAccounts.ts"
import { differences } from "./ExampleMatch.ts"
import { makeTestServer, TestServer } from "./TestServer.ts"

const Store = IsolatedPostgres.layerStore
const World = Layer.mergeAll(
  makeTestServer(Store, { sandbox: false }, DatabasePing.layer as never),
  CoreServices.pipe(Layer.provideMerge(Store))
)

/** The AdminOrders example's order as the worker leaves it when Fragment never confirms the delivery. */
const documented = (SCHEMA_EXAMPLES["AdminOrders"] as { orders: Array<Record<string, any>> }).orders[0]!

layer(World, { timeout: "120 seconds", excludeTestServices: true })("the operators' examples replayed", (it) => {
  it.effect(
    "the queue, the receipt review and the home counts equal their examples",
    () =>
      Effect.gen(function* () {
        const { url } = yield* TestServer
        const op = yield* setExamplePrices(url)
        const user = SCHEMA_EXAMPLES["User"] as { telegram_id: number; username: string }
        const cookie = yield* signInAs(url, user.telegram_id, user.username)
        const userId = (yield* call(url, "/v2/dashboard", { cookie })).json.user.user_id as UserId
        yield* (yield* Balances)
          .adjust({ userId, amount: 150_000, reason: "example", key: "example-admin" })
          .pipe(Effect.orDie)
        const api = { "x-api-key": (yield* call(url, "/v2/api-key/rotate", { method: "POST", cookie })).json.api_key }

        // The card top-up credited by the bank relay, then a receipt of the same amount.
        const card = yield* call(url, "/v2/api/topups", { json: SCHEMA_EXAMPLES["TopupRequest"], headers: api })
        const paid = yield* call(url, "/v2/api/admin/payments/incoming", {
          json: { ...(SCHEMA_EXAMPLES["IncomingPaymentRequest"] as object), amount_uzs: card.json.payable_uzs },
          headers: { "x-admin-token": TEST_ADMIN_TOKEN }
        })
        assert.strictEqual(paid.json.status, "matched", paid.text)
        const receipt = new FormData()
        receipt.set("amount_uzs", String(card.json.topup.amount_uzs))
        receipt.set("receipt", new Blob([PNG], { type: "image/png" }), "receipt.png")
        const uploaded = yield* call(url, "/v2/balance/top-up/receipt", { body: receipt, cookie })
        assert.strictEqual(uploaded.status, 200, uploaded.text)

        // The example order, paid; its delivery still unknown after the worker's checks.
        const bought = yield* call(url, "/v2/api/stars/buy", {
          json: SCHEMA_EXAMPLES["StarsOrderRequest"],
          headers: api
        })
        const now = new Date()
        yield* (yield* Orders)
          .transition(
            bought.json.order.order_id as OrderId,
            ["queued"],
            "needs_attention",
            {
              attempts: documented.attempts,
              unknownAttempts: documented.unknown_checks,
              unknownSince: new Date(documented.unknown_since),
              lastError: documented.error,
              fragmentRef: documented.evidence.ref, // as the worker records a known Ref#
              nextAttemptAt: null,
              evidence: {
                txHash: documented.evidence.tx_hash,
                ref: documented.evidence.ref,
                chainState: documented.evidence.chain_state,
                answers: documented.evidence.answers
              }
            },
            now
          )
          .pipe(Effect.orDie)
        const orders = yield* call(url, "/v2/admin/orders", { cookie: op })
        const topups = yield* call(url, "/v2/admin/topups", { cookie: op })

        // The home page's counts: two card top-ups waiting, three tickets open.
        const home = SCHEMA_EXAMPLES["AdminHome"] as { pending_topups: number; open_tickets: number }
        for (let i = 0; i < home.pending_topups; i++)
          yield* call(url, "/v2/api/topups", { json: { amount_uzs: 60_000 + i * 1_000 }, headers: api })
        for (let i = 0; i < home.open_tickets; i++)
          yield* call(url, "/v2/tickets/new", {
            form: REQUEST_EXAMPLES["account.createTicket"] as Record<string, string>,
            cookie
          })
        const admin = yield* call(url, "/v2/admin", { cookie: op })
        assert.deepStrictEqual(
          {
            AdminOrders: differences(SCHEMA_EXAMPLES["AdminOrders"], orders.json),
            AdminTopups: differences(SCHEMA_EXAMPLES["AdminTopups"], topups.json),
            AdminHome: differences(SCHEMA_EXAMPLES["AdminHome"], admin.json)
          },
          { AdminOrders: [], AdminTopups: [], AdminHome: [] }
        )
        // The item examples are the listed ones.
        assert.deepStrictEqual(orders.json.orders[0].evidence, documented.evidence)
        assert.deepStrictEqual(differences(SCHEMA_EXAMPLES["AdminOrder"], orders.json.orders[0]), [])
        assert.deepStrictEqual(differences(SCHEMA_EXAMPLES["OrderEvidence"], orders.json.orders[0].evidence), [])
        assert.deepStrictEqual(differences(SCHEMA_EXAMPLES["AdminTopup"], topups.json.topups[0]), [])
      }),
    { timeout: 120_000 }
  )
})
