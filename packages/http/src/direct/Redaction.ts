/**
 * What of a direct request may be written to a log: the fields a person needs to follow an order, with
 * the phrase replaced by the spec's placeholder and anything that looks like a phrase (six or more
 * word-list words in a row, in any field, from any caller mistake) scrubbed as well.
 */
import { wordlist } from "@scure/bip39/wordlists/english.js"

export const PLACEHOLDER = "<MNEMONIC_PHRASE>"

const WORDS = new Set(wordlist)
// Runs this long of list words do not occur in order ids, usernames or addresses, but do in phrases.
const RUN = 6
const MAX_LOGGED = 120

/** `text` with every run of six or more BIP39/TON list words (whatever separates them) replaced by the placeholder. */
export const scrubPhrases = (text: string): string => {
  const runs: Array<readonly [number, number]> = []
  let first = -1
  let last = -1
  let count = 0
  const close = () => {
    if (count >= RUN) runs.push([first, last])
    count = 0
  }
  for (const match of text.matchAll(/[A-Za-z]+/g)) {
    if (WORDS.has(match[0].toLowerCase())) {
      if (count === 0) first = match.index
      last = match.index + match[0].length
      count++
    } else close()
  }
  close()
  let out = text
  for (const [from, to] of runs.toReversed()) out = `${out.slice(0, from)}${PLACEHOLDER}${out.slice(to)}`
  return out
}

const FIELDS = ["order_id", "username", "amount", "quantity", "duration", "months", "to", "address", "wallet_version", "version"]

const loggable = (value: unknown): unknown => {
  if (typeof value === "number" || typeof value === "boolean" || value === null) return value
  if (typeof value === "string") {
    const scrubbed = scrubPhrases(value)
    return scrubbed.length > MAX_LOGGED ? `${scrubbed.slice(0, MAX_LOGGED)}…` : scrubbed
  }
  return `<${Array.isArray(value) ? "array" : typeof value}>`
}

/** The request as it may be logged: known fields (scrubbed), the phrase as a placeholder, other keys by name only. */
export const redactedRequest = (fields: Readonly<Record<string, unknown>>): Record<string, unknown> => {
  const out: Record<string, unknown> = {}
  for (const key of FIELDS) if (key in fields) out[key] = loggable(fields[key])
  if ("seed" in fields) out["seed"] = PLACEHOLDER
  if (typeof fields["comment"] === "string") out["comment"] = `<${fields["comment"].length} characters>`
  const other = Object.keys(fields).filter((k) => !FIELDS.includes(k) && k !== "seed" && k !== "comment")
  if (other.length > 0) out["other_keys"] = other.slice(0, 20).map((k) => scrubPhrases(k).slice(0, 40))
  return out
}
