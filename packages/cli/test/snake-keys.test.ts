import { assert, describe, it } from "@effect/vitest"
import { toJson } from "../src/Output.ts"
import { keyedByData, snakeCase } from "../src/SnakeKeys.ts"

describe("snake_case field names in --json", () => {
  it("splits words and digits as the API names them; snake_case and non-identifiers stay", () => {
    const cases: ReadonlyArray<readonly [string, string]> = [
      ["starPriceUzs", "star_price_uzs"],
      ["premium3MonthUzs", "premium_3_month_uzs"],
      ["premium12MonthUzs", "premium_12_month_uzs"],
      ["txHash", "tx_hash"],
      ["apiKey", "api_key"],
      ["HTTPStatus", "http_status"],
      ["sha256", "sha256"],
      ["highloadV3", "highload_v3"],
      ["premium_3_month_uzs", "premium_3_month_uzs"],
      ["status", "status"],
      ["_tag", "_tag"],
      ["@AliceB", "@AliceB"],
      ["42", "42"]
    ]
    for (const [from, to] of cases) assert.strictEqual(snakeCase(from), to, from)
  })

  it("converts every level, arrays and dates included, after toJSON", () => {
    const value = { topupId: 1, items: [{ createdAt: new Date(0), fee: 5n, nested: { payAmount: "1" } }] }
    assert.deepStrictEqual(JSON.parse(toJson(value)), {
      topup_id: 1,
      items: [{ created_at: "1970-01-01T00:00:00.000Z", fee: "5", nested: { pay_amount: "1" } }]
    })
  })

  it("keeps the keys of a map keyed by data (usernames, ids) and converts its values", () => {
    const byUser = keyedByData({ AliceB: { balanceUzs: 5 }, bobSmith: { balanceUzs: 7 } })
    assert.deepStrictEqual(JSON.parse(toJson({ perUser: byUser })), {
      per_user: { AliceB: { balance_uzs: 5 }, bobSmith: { balance_uzs: 7 } }
    })
  })

  it("two names that would print alike are refused, not silently merged", () => {
    assert.throws(() => toJson({ txId: 1, tx_id: 2 }), /two fields print as "tx_id"/)
  })
})
