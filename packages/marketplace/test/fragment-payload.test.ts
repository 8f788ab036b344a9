import { assert, describe, it } from "@effect/vitest"
import { beginCell, Cell } from "@ton/core"
import { Effect } from "effect"
import { decodeBase64, encodeCommentPayload, parseCommentPayload, readCommentPayload } from "../src/FragmentPayload.ts"

const toUrlSafe = (b64: string) => b64.replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "")

/** A comment cell built by hand, independently of the encoder under test. */
const handBuilt = (parts: ReadonlyArray<string>): string => {
  let tail: Cell | undefined
  for (let i = parts.length - 1; i >= 1; i--) {
    const b = beginCell().storeBuffer(Buffer.from(parts[i]!, "utf-8"))
    tail = (tail === undefined ? b : b.storeRef(tail)).endCell()
  }
  const root = beginCell().storeUint(0, 32).storeBuffer(Buffer.from(parts[0]!, "utf-8"))
  return (tail === undefined ? root : root.storeRef(tail))
    .endCell()
    .toBoc({ idx: false, crc32: false })
    .toString("base64")
}

describe("Fragment payload", () => {
  // recorded layout: root = op + 35 comment bytes, the rest in a child cell
  const FIXTURE = "te6ccgEBAgEALwABTgAAAAAxMDAwMDAwIFRlbGVncmFtIFN0YXJzIAoKUmVmI1pxN1h3MgEABkxtOQ=="

  it("reads a padded standard base64 comment split inside Ref#", () => {
    const parsed = parseCommentPayload(FIXTURE)
    assert.deepStrictEqual(parsed, { comment: "1000000 Telegram Stars \n\nRef#Zq7Xw2Lm9", ref: "Zq7Xw2Lm9" })
    // the fixture really is split inside the Ref# id
    const root = Cell.fromBase64(FIXTURE)
    assert.strictEqual(root.refs.length, 1)
    assert.strictEqual(root.refs[0]!.beginParse().loadBuffer(3).toString(), "Lm9")
  })

  it("reads the same payload as url-safe unpadded base64", () => {
    const urlSafe = toUrlSafe(FIXTURE)
    assert.isFalse(urlSafe.endsWith("="))
    assert.deepStrictEqual(parseCommentPayload(urlSafe), parseCommentPayload(FIXTURE))
  })

  it("encodes exactly like the recorded layout", () => {
    assert.strictEqual(encodeCommentPayload("1000000 Telegram Stars \n\nRef#Zq7Xw2Lm9"), FIXTURE)
    assert.strictEqual(
      encodeCommentPayload("Telegram Premium for 1 year \n\nRef#rT5bN8qLk"),
      handBuilt(["Telegram Premium for 1 year \n\nRef#r", "T5bN8qLk"])
    )
    assert.strictEqual(
      encodeCommentPayload("50 Telegram Stars \n\nRef#k2J9h3BWx"),
      handBuilt(["50 Telegram Stars \n\nRef#k2J9h3BWx"])
    )
  })

  it("round-trips long comments over several snake cells, url-safe or not", () => {
    const comment = `${"Telegram account top up ".repeat(12)}\n\nRef#Ab3Cd4Ef5`
    for (const urlSafe of [false, true]) {
      const payload = encodeCommentPayload(comment, { urlSafe })
      assert.deepStrictEqual(parseCommentPayload(payload), { comment, ref: "Ab3Cd4Ef5" })
    }
    const depth = (cell: Cell): number => (cell.refs.length === 0 ? 1 : 1 + depth(cell.refs[0]!))
    assert.isAtLeast(depth(Cell.fromBase64(encodeCommentPayload(comment))), 3)
  })

  it("joins multi-byte UTF-8 characters split across cells", () => {
    const comment = `Подарок ⭐ для друга \n\nRef#Xy9Zz8Ww7`
    const bytes = Buffer.from(comment, "utf-8")
    // byte 5 falls inside the two-byte "д"
    const raw = beginCell()
      .storeUint(0, 32)
      .storeBuffer(bytes.subarray(0, 5))
      .storeRef(beginCell().storeBuffer(bytes.subarray(5)))
      .endCell()
      .toBoc()
      .toString("base64")
    assert.strictEqual(parseCommentPayload(raw)?.comment, comment)
  })

  it("refuses anything that is not a text comment with a Ref#", () => {
    const jetton = beginCell().storeUint(0x0f8a7ea5, 32).storeUint(0, 64).endCell().toBoc().toString("base64")
    const noRef = encodeCommentPayload("Telegram account top up")
    for (const bad of [jetton, noRef, "", "!!!not-base64!!!", "te6cc", toUrlSafe(FIXTURE).slice(0, 30)]) {
      assert.isUndefined(parseCommentPayload(bad), bad)
    }
  })

  it("accepts both base64 alphabets and rejects stray characters", () => {
    assert.deepStrictEqual(Array.from(decodeBase64("-_8")!), [0xfb, 0xff])
    assert.deepStrictEqual(Array.from(decodeBase64("+/8=")!), [0xfb, 0xff])
    assert.isUndefined(decodeBase64("ab cd"))
    assert.isUndefined(decodeBase64("a"))
  })

  it.effect("an unreadable payload fails as Unavailable", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(readCommentPayload("AAAA"))
      assert.strictEqual(error.reason, "Unavailable")
      const ok = yield* readCommentPayload(FIXTURE)
      assert.strictEqual(ok.ref, "Zq7Xw2Lm9")
    })
  )
})
