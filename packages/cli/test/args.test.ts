import { assert, describe, it } from "@effect/vitest"
import { OrderId, UserId } from "@resale/core/ids.ts"
import { InvalidArgumentError } from "commander"
import { nonBlank, positiveId, signedUzs, tonAmount, userRef, wholeNumber } from "../src/Args.ts"

const rejects = (f: () => unknown, fragment: string) => {
  try {
    f()
  } catch (error) {
    assert.instanceOf(error, InvalidArgumentError)
    assert.include((error as Error).message, fragment)
    return
  }
  assert.fail(`accepted a value that must be refused (${fragment})`)
}

describe("argument parsers", () => {
  it("ids are positive whole numbers, a leading # allowed", () => {
    const id = positiveId("the order id", OrderId)
    assert.strictEqual(id("42"), OrderId.make(42))
    assert.strictEqual(id("#7"), OrderId.make(7))
    for (const bad of ["0", "-1", "1.5", "1e3", "12abc", "", "9007199254740993"])
      rejects(() => id(bad), "the order id must be")
  })

  it("whole numbers respect their range; underscores group digits", () => {
    const limit = wholeNumber("--limit", 1, 100)
    assert.strictEqual(limit("100"), 100)
    assert.strictEqual(wholeNumber("--star", 1)("1_000_000"), 1_000_000)
    rejects(() => limit("101"), "between 1 and 100")
    rejects(() => limit("0"), "between 1 and 100")
    rejects(() => wholeNumber("--star", 1)("2.5"), "at least 1")
  })

  it("signed so'm: non-zero whole numbers with an optional sign", () => {
    assert.strictEqual(signedUzs("+50000"), 50_000)
    assert.strictEqual(signedUzs("-20_000"), -20_000)
    for (const bad of ["0", "-0", "1.5", "abc", "", "1e5"]) rejects(() => signedUzs(bad), "non-zero whole number")
  })

  it("users are an id or an @username", () => {
    assert.deepStrictEqual(userRef("12"), { kind: "id", id: UserId.make(12) })
    assert.deepStrictEqual(userRef(" @Ann_1 "), { kind: "username", username: "Ann_1" })
    rejects(() => userRef("@"), "is not a username")
    rejects(() => userRef("@a b"), "is not a username")
    rejects(() => userRef("ann"), "must be a positive whole number")
  })

  it("TON amounts stay decimal text with at most 9 decimals and are positive", () => {
    assert.strictEqual(tonAmount("1.5"), "1.5")
    assert.strictEqual(tonAmount("0.000000001"), "0.000000001")
    for (const bad of ["0", "0.0", "-1", "1.0000000001", "1,5", "ten", ".5"])
      rejects(() => tonAmount(bad), "positive number of TON")
  })

  it("blank text is refused", () => {
    assert.strictEqual(nonBlank("--body")(" hi "), " hi ")
    rejects(() => nonBlank("--body")("  \t"), "--body must not be empty")
  })
})
