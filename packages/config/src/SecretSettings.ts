/**
 * Settings whose values are secrets of particular shapes. Each names the parts of its text a log
 * must never show (`secretParts`), so the scrubber learns a proxy's password or a collector's header
 * values on their own, not only the whole text.
 */
import { Option, Redacted, Result } from "effect"
import { type Setting, secretUrlWhere } from "./Setting.ts"

const ok = Result.succeed
const expected = (what: string) => Result.fail(`expected ${what}`)

/** An http(s) URL that is a secret (a proxy's may carry a password, scrubbed on its own too). */
export const secretUrl = (name: string, meaning: string): Setting<Option.Option<Redacted.Redacted<string>>> =>
  secretUrlWhere(name, meaning, (t) => /^https?:\/\/[^\s]+$/.test(t), "an http:// or https:// URL")

/** `key=value` pairs, comma-separated, as OTEL_EXPORTER_OTLP_HEADERS writes them; keys trimmed, values URL-decoded. */
export const parseHeaderList = (text: string): ReadonlyArray<readonly [string, string]> =>
  text.split(",").flatMap((pair) => {
    const at = pair.indexOf("=")
    if (at <= 0) return []
    const value = pair.slice(at + 1).trim()
    let decoded = value
    try {
      decoded = decodeURIComponent(value)
    } catch {
      // not percent-encoded: kept as written
    }
    return [[pair.slice(0, at).trim(), decoded] as const]
  })

/** Headers for a collector (secret: they carry its credentials); every value is scrubbed on its own. */
export const headerList = (name: string, meaning: string): Setting<Option.Option<Redacted.Redacted<string>>> =>
  ({
    name,
    meaning,
    defaultText: "",
    secret: true,
    secretParts: (text) => [text, ...parseHeaderList(text).flatMap(([, value]) => [value, encodeURIComponent(value)])],
    fallback: Option.none(),
    decode: (t) =>
      parseHeaderList(t).length > 0 ? ok(Option.some(Redacted.make(t))) : expected("comma-separated key=value pairs")
  }) satisfies Setting<Option.Option<Redacted.Redacted<string>>>

/** A secret Telegram accepts as a webhook's `secret_token`: 1-256 of A-Z, a-z, 0-9, _ and -. */
export const webhookToken = (name: string, meaning: string): Setting<Option.Option<Redacted.Redacted<string>>> =>
  ({
    name,
    meaning,
    defaultText: "",
    secret: true,
    fallback: Option.none(),
    decode: (t) =>
      /^[A-Za-z0-9_-]{1,256}$/.test(t.trim())
        ? ok(Option.some(Redacted.make(t.trim())))
        : expected("1 to 256 letters, digits, _ or -")
  }) satisfies Setting<Option.Option<Redacted.Redacted<string>>>
