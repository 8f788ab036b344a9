import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { adminSignIn, call, signIn } from "./Client.ts"
import { pgTestServer, TestServer } from "./TestServer.ts"

/**
 * The panel's money forms over HTTP: their declared schemas checked by the request validator (every
 * field at once, FastAPI's records), then what a schema cannot say (a path naming no user, the
 * one-time key), all before the session check; signed in, the decoded form moves the money.
 */
const KEY = { "idempotency-key": "panel-http-0001" }
const details = (answer: { json: { detail: ReadonlyArray<{ loc: ReadonlyArray<unknown>; type: string }> } }) =>
  answer.json.detail.map((d) => [d.loc.join("."), d.type])

layer(pgTestServer(), { timeout: "60 seconds", excludeTestServices: true })("panel money forms", (it) => {
  it.effect("input is answered before the session: the fields at once, then the path's user, then the key", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const adjust = (user: string, form: Record<string, string>, headers: Record<string, string> = KEY) =>
        call(url, `/v2/admin/users/${user}/adjust`, { form, headers })
      const both = yield* adjust("abc", { amount_uzs: "0", reason: " " }, {})
      assert.strictEqual(both.status, 422)
      assert.deepStrictEqual(details(both), [
        ["body.amount_uzs", "value_error"],
        ["body.reason", "value_error"]
      ])
      assert.strictEqual(both.json.detail[0].msg, "Value error, must not be zero")
      const long = yield* adjust("1", { amount_uzs: "x", reason: "r".repeat(501) })
      assert.deepStrictEqual(details(long), [
        ["body.amount_uzs", "int_parsing"],
        ["body.reason", "string_too_long"]
      ])
      assert.deepStrictEqual(long.json.detail[1].ctx, { max_length: 500 })
      const noUser = yield* adjust("abc", { amount_uzs: "5", reason: "r" }, {})
      assert.deepStrictEqual([noUser.status, noUser.json.code], [404, "user_not_found"])
      const noKey = yield* adjust("1", { amount_uzs: "5", reason: "r" }, { "idempotency-key": "short" })
      assert.deepStrictEqual([noKey.status, details(noKey)], [422, [["header.idempotency-key", "missing"]]])
      assert.strictEqual((yield* adjust("1", { amount_uzs: "1_000", reason: "r" })).status, 401)

      const assign = (payment: string, form: Record<string, string>) =>
        call(url, `/v2/admin/payments/${payment}/assign`, { form })
      const wrong = yield* assign("x", { topup_id: "", confirm_duplicate: "maybe" })
      assert.deepStrictEqual(details(wrong), [
        ["path.payment_id", "int_parsing"],
        ["body.topup_id", "missing"],
        ["body.confirm_duplicate", "bool_parsing"]
      ])
      assert.strictEqual((yield* assign("1", { topup_id: "-4", confirm_duplicate: "" })).status, 401)
    })
  )

  it.effect("signed in: a lax int and a padded reason are the correction; a top-up that cannot exist is a 404", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const shopper = yield* signIn(url, 83001, "panel_forms_user")
      const op = yield* adminSignIn(url)
      const listed = yield* call(url, "/v2/admin/users/list?search=panel_forms_user", { cookie: op })
      const userId = listed.json.users[0].user_id as number
      const adjusted = yield* call(url, `/v2/admin/users/${userId}/adjust`, {
        form: { amount_uzs: "+1_500", reason: "  bank fee  " },
        headers: KEY,
        cookie: op
      })
      assert.strictEqual(adjusted.status, 200, adjusted.text)
      assert.deepStrictEqual([adjusted.json.amount_uzs, adjusted.json.balance_uzs], [1500, 1500])
      assert.strictEqual((yield* call(url, "/v2/balance", { cookie: shopper })).json.balance_uzs, 1500)
      const detail = yield* call(url, `/v2/admin/users/${userId}`, { cookie: op })
      assert.include(JSON.stringify(detail.json.history), '"bank fee"')

      const typo = yield* call(url, "/v2/admin/payments/1/assign", { form: { topup_id: "0" }, cookie: op })
      assert.deepStrictEqual([typo.status, typo.json.code], [404, "topup_not_found"])
    })
  )
})
