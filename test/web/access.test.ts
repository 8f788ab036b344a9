/**
 * The web UI's own routes beyond the /v2 contract (the contract's are in the http package's
 * authorization matrix): the panel's JSON routes answer operators only, the web order forms
 * signed-in shoppers only.
 */
import { assert, layer } from "@effect/vitest"
import { OPERATOR_LIST_ROUTES as PANEL_ROUTES } from "@resale/http/api/OperatorListsApi.ts"
import { PANEL_FORM_ROUTES } from "@resale/http/api/PanelFormsApi.ts"
import { REPORT_ROUTES } from "@resale/http/api/ReportsApi.ts"
import { BANK_PAYMENT_ROUTES } from "@resale/http/api/BankPaymentsApi.ts"
import { ShopperApi } from "@resale/http/api/ShopperApi.ts"
import { Effect } from "effect"
import { browser, person } from "./support/Browser.ts"
import { shopperName, signInOperator, signInShopper } from "./support/Flows.ts"
import { WebWorld, webWorldLayer } from "./support/WebWorld.ts"

const OPERATOR_ROUTES: ReadonlyArray<{ readonly method: string; readonly path: string }> = [
  ...PANEL_ROUTES,
  ...BANK_PAYMENT_ROUTES,
  // The assignment form (the balance correction needs a one-time key before credentials are looked at).
  ...PANEL_FORM_ROUTES.filter((route) => route.path.endsWith("/assign")),
  ...REPORT_ROUTES
]
const json = { accept: "application/json" }
const form = { "content-type": "application/x-www-form-urlencoded", ...json }
// Valid input for each POST, so only the credentials decide the answer.
const FORMS: Record<string, string> = {
  assign: "topup_id=1",
  stars: "username=friend&amount=50",
  premium: "username=friend&duration=3"
}
// The web order forms: the POST endpoints of the shopper's contract group.
const SHOPPER_ROUTES = Object.values(ShopperApi.endpoints).filter((e) => e.method === "POST")
const formOf = (path: string) => FORMS[path.split("/").at(-1)!] ?? ""
const concrete = (path: string) => path.replace(/:\w+/g, "1")

layer(webWorldLayer(), { timeout: "120 seconds", excludeTestServices: true })("web routes: who may call them", (it) => {
  it.effect("panel routes: 401 for anonymous callers and shoppers, answered for the operator", () =>
    Effect.gen(function* () {
      const { url } = yield* WebWorld
      const b = yield* browser
      yield* Effect.promise(async () => {
        const shopper = await person(b, url)
        await signInShopper(shopper.page, shopperName("access"))
        const operator = await person(b, url)
        await signInOperator(operator.page)
        for (const route of OPERATOR_ROUTES) {
          const path = concrete(route.path)
          const post = route.method === "POST"
          const anonymous = await fetch(
            `${url}${path}`,
            post ? { method: "POST", headers: form, body: formOf(path) } : { headers: json }
          )
          assert.deepStrictEqual(
            [anonymous.status, await anonymous.json()],
            [
              401,
              {
                detail: "Not authenticated",
                code: "not_authenticated",
                request_id: anonymous.headers.get("x-request-id")
              }
            ],
            `anonymous ${path}`
          )
          const asShopper = post
            ? await shopper.page.request.post(path, { headers: form, data: formOf(path) })
            : await shopper.page.request.get(path, { headers: json })
          assert.strictEqual(asShopper.status(), 401, `shopper ${path}`)
        }
        // The operator gets past the guard (lists answer; missing records are 404, not 401).
        const lists = await operator.page.request.get("/v2/admin/topups/list", { headers: json })
        assert.strictEqual(lists.status(), 200)
        assert.strictEqual(
          (await operator.page.request.get("/v2/admin/tickets/999999", { headers: json })).status(),
          404
        )
      })
    })
  )

  it.effect("web order forms: 401 for anonymous callers", () =>
    Effect.gen(function* () {
      const { url } = yield* WebWorld
      yield* Effect.promise(async () => {
        for (const route of SHOPPER_ROUTES) {
          const answer = await fetch(`${url}${route.path}`, { method: "POST", headers: form, body: formOf(route.path) })
          assert.deepStrictEqual(
            [answer.status, await answer.json()],
            [
              401,
              { detail: "Not authenticated", code: "not_authenticated", request_id: answer.headers.get("x-request-id") }
            ],
            route.path
          )
        }
      })
    })
  )
})
