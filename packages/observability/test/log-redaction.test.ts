import { assert, describe, it } from "@effect/vitest"
import { PHRASE_PLACEHOLDER, scrub } from "../src/LogRedaction.ts"

const SIX = ["abandon", "ability", "able", "about", "above", "absent"]

describe("scrub: mnemonic phrases", () => {
  it("a run of six list words is replaced, whatever separates them and in either case", () => {
    for (const text of [
      SIX.join(" "),
      SIX.join("1"),
      SIX.join(","),
      SIX.join("-").toUpperCase(),
      `seed=${SIX.join("+")}&x=1`
    ]) {
      const scrubbed = scrub(text)
      assert.include(scrubbed, PHRASE_PLACEHOLDER, text)
      for (const word of SIX) assert.notInclude(scrubbed.toLowerCase(), word, text)
    }
  })

  it("a long text holding a phrase after many other words is scrubbed too", () => {
    const text = `${"x1 ".repeat(40)}order 17 for ${SIX.join(" ")} now`
    assert.notInclude(scrub(text), "abandon")
  })

  it("five list words, ids, hashes and request ids are kept as they are", () => {
    for (const text of [
      SIX.slice(0, 5).join(" "),
      "3f2b9c1e-aaad-4bed-9cab-0dadbeefcafe",
      "GET /v2/api/pricing 200",
      "abc1def2ghi3jkl4mno5pq"
    ]) {
      assert.strictEqual(scrub(text), text)
    }
  })
})
