import { assert, describe, it } from "@effect/vitest"
import { cell, fields, table, toJson } from "../src/Output.ts"
import { indentedBlock, jsonTerminalSafe, terminalSafe } from "../src/TerminalText.ts"

const ATTACK = "\x1b]0;pwned\x07\x1b[2K\r\x1b[32mOK"
// Characters a terminal obeys: C0 but line feed, DEL, C1, bidi controls, line and paragraph separators.
const BIDI = [
  0x061c, 0x200e, 0x200f, 0x2028, 0x2029, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069
]
const obeyed = (text: string): ReadonlyArray<string> =>
  [...text].filter((char) => {
    const code = char.codePointAt(0) ?? 0
    return (code < 0x20 && code !== 0x0a) || (code >= 0x7f && code <= 0x9f) || BIDI.includes(code)
  })

describe("terminalSafe", () => {
  it("shows control and bidi characters as visible escapes", () => {
    assert.strictEqual(terminalSafe(ATTACK), "\\x1b]0;pwned\\x07\\x1b[2K\\r\\x1b[32mOK")
    assert.strictEqual(terminalSafe("abc\u202edef\u2066"), "abc\\u202edef\\u2066")
    assert.strictEqual(terminalSafe("del\x7f csi\x9b nul\0 tab\t"), "del\\x7f csi\\x9b nul\\x00 tab\\t")
    assert.strictEqual(terminalSafe("two\nlines"), "two\\nlines")
    assert.strictEqual(terminalSafe("two\nlines", { keepNewlines: true }), "two\nlines")
  })

  it("leaves ordinary text, Cyrillic and emoji alone, and is idempotent", () => {
    for (const text of ["Stars not delivered", "Здравствуйте, où est ma commande? 🎁", "C:\\path \\x1b"]) {
      assert.strictEqual(terminalSafe(text), text)
    }
    assert.strictEqual(terminalSafe(terminalSafe(ATTACK)), terminalSafe(ATTACK))
  })

  it("a body keeps its lines, indented, each escaped", () => {
    assert.strictEqual(indentedBlock(`hello\r\n${ATTACK}\nbye`), `    hello\n    ${terminalSafe(ATTACK)}\n    bye`)
  })
})

describe("the CLI's renderers", () => {
  it("cells and fields stay on one line and carry no control character", () => {
    const rendered = [
      table(["SUBJECT"], [[ATTACK], ["line\nbreak"]]),
      fields([["Subject", ATTACK]]),
      cell(`\u202e${ATTACK}`)
    ]
    for (const text of rendered) assert.deepStrictEqual(obeyed(text), [])
    assert.strictEqual(table(["SUBJECT"], [["line\nbreak"]]).split("\n").length, 2)
  })

  it("--json output is the same value with nothing a terminal obeys left raw", () => {
    const value = { subject: ATTACK, note: "rev\u202eersed c1\x9b del\x7f" }
    const text = toJson(value)
    assert.deepStrictEqual(obeyed(text), [])
    assert.deepStrictEqual(JSON.parse(text), value)
    assert.strictEqual(jsonTerminalSafe('"\u2028"'), '"\\u2028"')
  })
})
