/**
 * What of a direct request may be written to a log: the fields a person needs to follow an order, with
 * the phrase replaced by the spec's placeholder and anything that looks like a phrase (six or more
 * word-list words in a row, in any field, from any caller mistake) scrubbed as well.
 */
import { PHRASE_PLACEHOLDER, scrubPhrases } from "@resale/observability/LogRedaction.ts"

export { scrubPhrases }
export const PLACEHOLDER = PHRASE_PLACEHOLDER

const MAX_LOGGED = 120

const FIELDS = [
  "order_id",
  "username",
  "amount",
  "quantity",
  "duration",
  "months",
  "to",
  "address",
  "wallet_version",
  "version"
]

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
