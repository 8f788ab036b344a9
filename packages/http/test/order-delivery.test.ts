import { assert, layer } from "@effect/vitest"
import { CoreServices } from "@resale/core/CoreServices.ts"
import { OrderService } from "@resale/core/orders/OrderService.ts"
import { IsolatedPostgres } from "@resale/store/testing/IsolatedPostgres.ts"
import { Effect, Layer, Option } from "effect"
import { DatabasePing } from "../src/server/HttpApp.ts"
import { adminSignIn, call, signIn, TEST_ADMIN_TOKEN } from "./Client.ts"
import { makeTestServer, TestServer } from "./TestServer.ts"
import { translator } from "@resale/web/i18n/Translate.ts"
import { ordersTable } from "@resale/web/pages/OrderViews.ts"
import { adminOrdersPage } from "@resale/web/pages/AdminOrdersPage.ts"

// One database for the server and for this file's worker-side calls (the same layer, built once).
const Store = IsolatedPostgres.layerStore
const World = Layer.mergeAll(
  makeTestServer(Store, {}, DatabasePing.layer as never),
  CoreServices.pipe(Layer.provideMerge(Store))
)

const byId = (orders: ReadonlyArray<{ order_id: number; delivery: string | null }>, id: number) =>
  orders.find((o) => o.order_id === id)

layer(World, { timeout: "60 seconds", excludeTestServices: true })(
  "an order's delivery on the wire and the pages",
  (it) => {
    it.effect(
      "paid on its own evidence: `paid_unconfirmed` with its Ref# to integrators, sent to shoppers, not confirmed to operators",
      () =>
        Effect.gen(function* () {
          const { url } = yield* TestServer
          const op = yield* adminSignIn(url)
          const cookie = yield* signIn(url, 96101, "delivery_user")
          const topup = (yield* call(url, "/v2/balance/top-up", { form: { amount_uzs: "100000" }, cookie })).json.topup
          const paid = yield* call(url, `/v2/api/admin/topups/${topup.topup_id}/mark-paid`, {
            method: "POST",
            headers: { "x-admin-token": TEST_ADMIN_TOKEN }
          })
          assert.strictEqual(paid.status, 200, paid.text)
          const key = (yield* call(url, "/v2/api-key/rotate", { method: "POST", cookie })).json.api_key as string
          const headers = { "x-api-key": key }
          const buy = (username: string) =>
            Effect.map(call(url, "/v2/api/stars/buy", { json: { username, amount: 50 }, headers }), (r) => {
              assert.strictEqual(r.status, 200, r.text)
              return r.json.order.order_id as number
            })
          const unconfirmed = yield* buy("evidence_only")
          const confirmed = yield* buy("confirmed_friend")
          assert.isNull(
            (yield* call(url, `/v2/api/orders/${unconfirmed}`, { headers })).json.delivery,
            "not completed yet"
          )

          // The worker's side: the first settled on its payment evidence only, the second confirmed by Fragment.
          const service = yield* OrderService
          const first = Option.getOrThrow(yield* service.claimNext)
          yield* service.complete(first.id, {
            txId: "ab12",
            fragmentRef: "kpJ55h3BW",
            unconfirmed: "Paid to the marketplace: Ref#kpJ55h3BW; delivery not confirmed"
          })
          const second = Option.getOrThrow(yield* service.claimNext)
          yield* service.complete(second.id, { txId: "cd34", fragmentRef: "Zx81" })

          const one = (yield* call(url, `/v2/api/orders/${unconfirmed}`, { headers })).json
          assert.deepStrictEqual([one.status, one.delivery], ["completed", "paid_unconfirmed"])
          const listed = (yield* call(url, "/v2/api/orders", { headers })).json.orders
          assert.deepStrictEqual(
            [byId(listed, unconfirmed)?.delivery, byId(listed, confirmed)?.delivery],
            ["paid_unconfirmed", "confirmed"]
          )
          const own = (yield* call(url, "/v2/orders/list", { cookie })).json.orders
          assert.strictEqual(byId(own, unconfirmed)?.delivery, "paid_unconfirmed")
          const admin = (yield* call(url, "/v2/admin/orders", { cookie: op })).json.orders
          assert.strictEqual(byId(admin, unconfirmed)?.delivery, "paid_unconfirmed")
          assert.strictEqual(byId(admin, confirmed)?.delivery, "confirmed")

          assert.strictEqual(one.fragment_ref, "kpJ55h3BW", "the on-chain reference, for integrators too")

          // The shopper's order rows (from the same answer): completed, sent, paid on chain with its Ref#, in
          // every language; "delivery not confirmed by Fragment" is the operators' alone.
          const rows = (locale: "en" | "ru" | "uz") => ordersTable(translator(locale), own, {}).value
          const row = (page: string, id: number) =>
            page.slice(page.indexOf(`data-order-id="${id}"`)).split("</tr>")[0] ?? ""
          assert.include(row(rows("en"), unconfirmed), 'data-status="completed"')
          assert.include(row(rows("en"), unconfirmed), "Sent: paid on chain, reference Ref#kpJ55h3BW.")
          assert.notInclude(row(rows("en"), unconfirmed), "not confirmed")
          assert.include(row(rows("en"), confirmed), "Delivered")
          assert.notInclude(row(rows("en"), confirmed), "Sent: paid on chain")
          assert.include(row(rows("ru"), unconfirmed), "Отправлено: оплачено в блокчейне, номер платежа Ref#kpJ55h3BW.")
          assert.notInclude(row(rows("ru"), unconfirmed), "не подтвержден")
          assert.include(row(rows("uz"), unconfirmed), "Yuborildi: blokcheynda to‘langan, to‘lov raqami Ref#kpJ55h3BW.")
          assert.notInclude(row(rows("uz"), unconfirmed), "tasdiqlanmagan")
          // The operator's orders page: "not confirmed by Fragment", with the evidence (Ref#, confirmReq's answer).
          const ctx = {
            tr: translator("en"),
            sandbox: true,
            csrf: "t",
            flash: undefined,
            path: "/v2/admin/orders",
            area: "admin",
            signedIn: false,
            assetVersion: "1"
          } as const
          const operatorPage = adminOrdersPage(ctx, {
            orders: admin,
            total: admin.length,
            gifts: {},
            filter: { status: null, kind: null, offset: 0, limit: 50 }
          }).value
          assert.include(row(operatorPage, unconfirmed), "Paid, delivery not confirmed by Fragment")
          assert.include(row(operatorPage, unconfirmed), "kpJ55h3BW")
          assert.include(row(operatorPage, unconfirmed), "<dt>confirmReq</dt><dd data-confirm-req>accepted</dd>")
          assert.include(row(operatorPage, unconfirmed), "delivery not confirmed")
          assert.include(row(operatorPage, confirmed), "Delivered")
        })
    )
  }
)
