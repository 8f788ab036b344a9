import { assert, describe, it } from "@effect/vitest"
import { keptValues, placeInSection, refillSection } from "../../src/layout/FormRecall.ts"

const PAGE =
  `<section class="card" id="a" aria-labelledby="a-h"><h2 id="a-h">A</h2><form><input id="u" name="username" type="text"></form></section>` +
  `<section class="card" id="b" aria-labelledby="b-h"><h2 id="b-h">B</h2><form><input type="hidden" name="_csrf" value="t">` +
  `<input id="n" name="amount" type="number" value="50"><select name="duration"><option value="3" selected>3</option><option value="6">6</option></select>` +
  `<textarea name="body" rows="4"></textarea><input name="username" type="text"></form></section>`

describe("FormRecall", () => {
  it("puts the message under the heading of the form's own section, or nowhere when there is none", () => {
    const placed = placeInSection(PAGE, "b", '<div id="flash"></div>')!
    assert.include(placed, `<h2 id="b-h">B</h2><div id="flash"></div><form>`)
    assert.strictEqual(placeInSection(PAGE, "missing", "x"), undefined)
  })

  it("fills back only that section's fields, escaped, and never the hidden ones", () => {
    const filled = refillSection(PAGE, "b", {
      amount: "120",
      duration: "6",
      body: "<b>hi</b>",
      username: 'a"b',
      _csrf: "evil"
    })
    assert.include(filled, `<input value="120" id="n" name="amount" type="number">`)
    assert.include(filled, `<option value="3">3</option><option value="6" selected>6</option>`)
    assert.include(filled, `<textarea name="body" rows="4">&lt;b&gt;hi&lt;/b&gt;</textarea>`)
    assert.include(filled, `<input value="a&quot;b" name="username" type="text">`)
    assert.include(filled, `name="_csrf" value="t"`)
    // Section a has a username field too: untouched.
    assert.include(filled, `<input id="u" name="username" type="text">`)
  })

  it("keeps no token, key or password from the posted form", () => {
    assert.deepStrictEqual(
      keptValues({ _csrf: "x", idempotency_key: "y", token: "z", password: "p", username: "durov", amount: "50" }),
      { username: "durov", amount: "50" }
    )
  })
})
