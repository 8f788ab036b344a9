import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { adminSignIn, call } from "./Client.ts"
import { pgTestServer, TestServer } from "./TestServer.ts"

/**
 * The panel's filter forms over HTTP (bank payments, the report and its CSV): read after sign-in (a
 * stranger learns nothing of them), then every refused field at once in FastAPI's 422 records.
 */
const JSON_ACCEPT = { accept: "application/json" }

layer(pgTestServer(), { timeout: "60 seconds", excludeTestServices: true })("panel filter forms", (it) => {
  it.effect("a bad filter is a 401 before sign-in, then FastAPI's records of every refused field", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const badPayments = "/v2/admin/payments?status=paid&from=2026-02-30&to=&amount=1%20000x"
      assert.strictEqual((yield* call(url, badPayments, { headers: JSON_ACCEPT })).status, 401)
      assert.strictEqual((yield* call(url, "/v2/admin/reports/data?period=year", { headers: JSON_ACCEPT })).status, 401)

      const cookie = yield* adminSignIn(url)
      const payments = yield* call(url, badPayments, { cookie, headers: JSON_ACCEPT })
      assert.strictEqual(payments.status, 422)
      assert.deepStrictEqual(payments.json.detail, [
        {
          type: "literal_error",
          loc: ["query", "status"],
          msg: "Input should be 'all', 'unresolved', 'assigned', 'received', 'matched', 'unmatched' or 'ambiguous'",
          input: "paid"
        },
        {
          type: "date_from_datetime_parsing",
          loc: ["query", "from"],
          msg: "Input should be a valid date",
          input: "2026-02-30"
        },
        { type: "int_parsing", loc: ["query", "amount"], msg: "Input should be a valid integer", input: "1000x" }
      ])

      const rate = "period=fortnight&ton_rate=4%2C0.5"
      const expected = [
        {
          type: "value_error",
          loc: ["query", "period"],
          msg: "Value error, one of day, week, month",
          input: "fortnight"
        },
        {
          type: "value_error",
          loc: ["query", "ton_rate"],
          msg: "Value error, a whole number of UZS per TON",
          input: "40.5"
        }
      ]
      for (const path of ["/v2/admin/reports/data", "/v2/admin/reports.csv"]) {
        const refused = yield* call(url, `${path}?${rate}`, { cookie, headers: JSON_ACCEPT })
        assert.deepStrictEqual([refused.status, refused.json.detail], [422, expected], path)
      }
      const backwards = yield* call(url, "/v2/admin/reports/data?from=2026-03-02&to=2026-03-01", {
        cookie,
        headers: JSON_ACCEPT
      })
      assert.deepStrictEqual(backwards.json.detail, [
        {
          type: "value_error",
          loc: ["query", "to"],
          msg: "Value error, to must not be before from",
          input: "2026-03-01"
        }
      ])
    })
  )

  it.effect("signed in, a good filter answers: amounts and rates with spaces, an empty field is no filter", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const cookie = yield* adminSignIn(url)
      const payments = yield* call(url, "/v2/admin/payments?status=all&from=&to=2026-03-01&amount=1%20000%2C000", {
        cookie,
        headers: JSON_ACCEPT
      })
      assert.deepStrictEqual([payments.status, payments.json.total], [200, 0])
      const report = yield* call(
        url,
        "/v2/admin/reports/data?period=&from=2026-03-01&to=2026-03-03&ton_rate=40%20000",
        {
          cookie,
          headers: JSON_ACCEPT
        }
      )
      assert.strictEqual(report.status, 200)
      assert.deepStrictEqual(
        [report.json.period, report.json.from, report.json.to, report.json.ton_rate_uzs, report.json.rows.length],
        ["day", "2026-03-01", "2026-03-03", 40_000, 3]
      )
    })
  )
})
