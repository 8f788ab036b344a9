import { assert, describe, it } from "@effect/vitest"
import {
  isLocalDate,
  periodSpans,
  periodStart,
  startOfTashkentDay,
  tashkentDay
} from "../../src/reports/ReportPeriods.ts"

describe("report periods (Tashkent, UTC+5)", () => {
  it("a Tashkent day starts at 19:00 UTC the day before", () => {
    assert.strictEqual(startOfTashkentDay("2026-11-26").toISOString(), "2026-11-25T19:00:00.000Z")
    assert.strictEqual(tashkentDay(new Date("2026-11-25T18:59:59Z")), "2026-11-25")
    assert.strictEqual(tashkentDay(new Date("2026-11-25T19:00:00Z")), "2026-11-26")
  })

  it("weeks start on Monday, months on the 1st; spans cover whole periods", () => {
    assert.strictEqual(periodStart("week", "2026-11-29"), "2026-11-23") // a Sunday -> that week's Monday
    assert.strictEqual(periodStart("week", "2026-11-23"), "2026-11-23")
    assert.strictEqual(periodStart("month", "2026-02-28"), "2026-02-01")
    assert.deepStrictEqual(periodSpans("month", "2026-01-15", "2026-03-02"), [
      { start: "2026-01-01", last: "2026-01-31" },
      { start: "2026-02-01", last: "2026-02-28" },
      { start: "2026-03-01", last: "2026-03-31" }
    ])
    assert.deepStrictEqual(
      periodSpans("week", "2026-12-30", "2027-01-05").map((s) => s.start),
      ["2026-12-28", "2027-01-04"]
    )
    assert.strictEqual(periodSpans("day", "2026-11-01", "2026-11-30").length, 30)
  })

  it("only real calendar dates are dates", () => {
    assert.isTrue(isLocalDate("2028-02-29"))
    assert.isFalse(isLocalDate("2026-02-29"))
    assert.isFalse(isLocalDate("2026-1-01"))
    assert.isFalse(isLocalDate("yesterday"))
  })
})
