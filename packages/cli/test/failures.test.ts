import { assert, describe, it } from "@effect/vitest"
import { OrderTransitionInvalid, TopupTransitionInvalid } from "@resale/core"
import { Cause } from "effect"
import { CliUsageError } from "../src/CliErrors.ts"
import { describeCause, describeError } from "../src/Failures.ts"

describe("failures", () => {
  it("invalid transitions read as sentences with exit code 1; usage errors exit 2", () => {
    const topup = describeError(new TopupTransitionInvalid({ topupId: 3 as never, from: "rejected", to: "paid" }))
    assert.deepStrictEqual(topup, {
      code: "TopupTransitionInvalid",
      message: "Top-up #3 is rejected; it cannot be approved or marked paid.",
      exitCode: 1
    })
    const order = describeError(new OrderTransitionInvalid({ orderId: 9 as never, from: "completed", to: "queued" }))
    assert.strictEqual(order.message, "Order #9 is completed; it cannot be retried.")
    assert.strictEqual(describeError(new CliUsageError({ message: "pass --yes" })).exitCode, 2)
  })

  it("defects never echo a database URL", () => {
    const failure = describeCause(
      Cause.die(new Error("connect failed for postgres://ops:hunter2@db.internal:5432/resale"))
    )
    assert.strictEqual(failure.exitCode, 1)
    assert.notInclude(failure.message, "hunter2")
    assert.include(failure.message, "<database url>")
  })
})
