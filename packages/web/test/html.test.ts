import { assert, describe, it } from "@effect/vitest"
import { html, join, jsonBlock, toString, unsafeRaw } from "../src/Html.ts"

describe("html templates", () => {
  it("escapes every interpolated text, keeps nested templates as markup", () => {
    const name = `<script>alert("x")</script>&'`
    const out = toString(html`<p title="${name}">${name}${html`<b>${"ok"}</b>`}</p>`)
    assert.strictEqual(
      out,
      `<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;<b>ok</b></p>`
    )
  })

  it("renders arrays, numbers and skips null, undefined and booleans", () => {
    assert.strictEqual(toString(html`${[1, "<", null, undefined, false, true, unsafeRaw("<i>")]}`), "1&lt;<i>")
    assert.strictEqual(toString(join(["a", html`<br>`, "b"], ", ")), "a, <br>, b")
  })

  it("a JSON block cannot be closed from inside its data", () => {
    const out = toString(jsonBlock("d", { text: "</script><script>alert(1)</script>\u2028" }))
    assert.notInclude(out.slice(0, -"</script>".length), "</script>")
    assert.deepStrictEqual(JSON.parse(out.replace(/^<script[^>]*>/, "").replace(/<\/script>$/, "")), {
      text: "</script><script>alert(1)</script>\u2028"
    })
  })
})
