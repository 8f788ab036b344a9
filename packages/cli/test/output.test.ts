import { assert, describe, it } from "@effect/vitest"
import { fields, formatSignedUzs, formatUzs, listing, table, toJson } from "../src/Output.ts"

describe("output", () => {
  it("so'm are grouped by thousands, signed movements keep their sign", () => {
    assert.strictEqual(formatUzs(0), "0")
    assert.strictEqual(formatUzs(1_250_000), "1 250 000")
    assert.strictEqual(formatSignedUzs(150_000), "+150 000")
    assert.strictEqual(formatSignedUzs(-2_300), "-2 300")
  })

  it("tables align columns and right-align numbers; empty cells for null", () => {
    const text = table(
      ["ID", "NAME", "UZS"],
      [
        [1, "ann", "1 000"],
        [22, null, "150 000"]
      ]
    )
    assert.strictEqual(text, ["ID  NAME      UZS", " 1  ann     1 000", "22        150 000"].join("\n"))
  })

  it("listings say how much of the total is shown", () => {
    assert.strictEqual(listing(["ID"], [], { total: 0, offset: 0 }, "orders"), "No orders.")
    assert.include(listing(["ID"], [[1], [2]], { total: 5, offset: 2 }, "orders"), "orders 3-4 of 5")
    assert.include(listing(["ID"], [[1]], { total: 1, offset: 0 }, "orders"), "1 orders")
  })

  it("records print as aligned label: value lines; JSON carries bigints as strings and dates as ISO", () => {
    assert.strictEqual(
      fields([
        ["Top-up", "#1"],
        ["Admin note", null]
      ]),
      "Top-up:     #1\nAdmin note:"
    )
    assert.strictEqual(toJson({ fee: 5n, at: new Date(0) }), '{\n  "fee": "5",\n  "at": "1970-01-01T00:00:00.000Z"\n}')
  })
})
