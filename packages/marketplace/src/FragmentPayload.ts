/**
 * Fragment's payment payload: a base64 BOC whose root cell is a text comment
 * (op = 32 zero bits, then a snake-encoded UTF-8 string) ending in "Ref#<id>".
 * The payload is forwarded to the wallet unchanged; we only read it to learn the `Ref#`.
 */
import { Cell, beginCell, type Slice } from "@ton/core"
import { Effect } from "effect"
import { MarketplaceError } from "@resale/core/ports/Marketplace.ts"

export interface CommentPayload {
  readonly comment: string
  readonly ref: string
}

/** What Fragment writes: the op plus 35 comment bytes in the root, 127 in each following cell. */
const ROOT_COMMENT_BYTES = 35
const CHILD_COMMENT_BYTES = 127

const BASE64 = /^[A-Za-z0-9+/\-_]+={0,2}$/
const REF = /Ref#([A-Za-z0-9]+)\s*$/

/** Accepts standard padded base64 and url-safe unpadded base64 (Fragment sends both). */
export const decodeBase64 = (text: string): Uint8Array | undefined => {
  const trimmed = text.trim()
  if (trimmed.length === 0 || !BASE64.test(trimmed)) return undefined
  const standard = trimmed.replaceAll("-", "+").replaceAll("_", "/").replace(/=+$/, "")
  if (standard.length % 4 === 1) return undefined
  return Buffer.from(standard + "=".repeat((4 - (standard.length % 4)) % 4), "base64")
}

const readSnakeBytes = (slice: Slice, depth: number): Uint8Array => {
  if (depth > 64 || slice.remainingBits % 8 !== 0 || slice.remainingRefs > 1) {
    throw new Error("not a snake string")
  }
  const head = slice.loadBuffer(slice.remainingBits / 8)
  if (slice.remainingRefs === 0) return head
  return Buffer.concat([head, readSnakeBytes(slice.loadRef().beginParse(), depth + 1)])
}

const utf8 = new TextDecoder("utf-8", { fatal: true })

/** Pure parse; `undefined` for anything that is not a text comment carrying a `Ref#`. */
export const parseCommentPayload = (payload: string): CommentPayload | undefined => {
  const bytes = decodeBase64(payload)
  if (bytes === undefined) return undefined
  try {
    const cells = Cell.fromBoc(Buffer.from(bytes))
    const root = cells[0]
    if (cells.length !== 1 || root === undefined) return undefined
    const slice = root.beginParse()
    if (slice.remainingBits < 32 || slice.loadUint(32) !== 0) return undefined
    const comment = utf8.decode(readSnakeBytes(slice, 0))
    const ref = REF.exec(comment)?.[1]
    return ref === undefined ? undefined : { comment, ref }
  } catch {
    // @ton/core throws on malformed BOCs; a bad payload is reported as undefined
    return undefined
  }
}

/** The payload as an Effect: a payload we cannot read means Fragment's answer is unusable. */
export const readCommentPayload = (payload: string): Effect.Effect<CommentPayload, MarketplaceError> =>
  Effect.suspend(() => {
    const parsed = parseCommentPayload(payload)
    return parsed === undefined
      ? Effect.fail(
          new MarketplaceError({
            reason: "Unavailable",
            message: "Fragment returned a payment payload without a Ref# comment"
          })
        )
      : Effect.succeed(parsed)
  })

/**
 * Builds a comment payload exactly as Fragment does (root: op + 35 bytes; then 127-byte cells),
 * standard padded base64. Used by the simulator and by fixtures.
 */
export const encodeCommentPayload = (
  comment: string,
  options: { readonly rootBytes?: number; readonly urlSafe?: boolean } = {}
): string => {
  const bytes = Buffer.from(comment, "utf-8")
  const rootBytes = options.rootBytes ?? ROOT_COMMENT_BYTES
  const chunks: Array<Buffer> = [bytes.subarray(0, rootBytes)]
  for (let at = rootBytes; at < bytes.length; at += CHILD_COMMENT_BYTES) {
    chunks.push(bytes.subarray(at, at + CHILD_COMMENT_BYTES))
  }
  let tail: Cell | undefined
  for (let i = chunks.length - 1; i >= 1; i--) {
    const builder = beginCell().storeBuffer(chunks[i]!)
    tail = (tail === undefined ? builder : builder.storeRef(tail)).endCell()
  }
  const root = beginCell().storeUint(0, 32).storeBuffer(chunks[0]!)
  const cell = (tail === undefined ? root : root.storeRef(tail)).endCell()
  const base64 = cell.toBoc({ idx: false, crc32: false }).toString("base64")
  return options.urlSafe === true ? base64.replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "") : base64
}
