import { assert, describe, it } from "@effect/vitest"
import { PLACEHOLDER, redactedRequest, scrubPhrases } from "../../src/direct/Redaction.ts"

// List words only; not anybody's phrase.
const phrase = "abandon ability able about above absent absorb abstract absurd abuse access accident"

describe("Redaction", () => {
  it("scrubs runs of six or more list words, whatever separates them, and keeps the rest", () => {
    // "seed" is a list word itself, so it goes with the phrase: over-redacting a log line is fine
    assert.strictEqual(scrubPhrases(`seed=${phrase}&x=1`), `${PLACEHOLDER}&x=1`)
    assert.strictEqual(scrubPhrases(`q=${phrase}`), `q=${PLACEHOLDER}`)
    assert.strictEqual(scrubPhrases(`["${phrase.split(" ").join('","')}"]`), `["${PLACEHOLDER}"]`)
    assert.strictEqual(scrubPhrases("order o-17 for about five able users"), "order o-17 for about five able users")
    assert.strictEqual(scrubPhrases(""), "")
  })

  it("logs the known fields, the phrase as the placeholder and other keys by name only", () => {
    const logged = redactedRequest({
      username: phrase,
      amount: 50,
      seed: phrase,
      comment: "hello",
      memo: phrase,
      [phrase]: 1
    })
    const text = JSON.stringify(logged)
    assert.notInclude(text, "abandon ability")
    assert.deepStrictEqual([logged["seed"], logged["comment"], logged["amount"]], [PLACEHOLDER, "<5 characters>", 50])
    assert.deepStrictEqual(logged["other_keys"], ["memo", PLACEHOLDER])
  })
})
