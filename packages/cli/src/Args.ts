import { UserId } from "@resale/core/ids.ts"
import { isLocalDate } from "@resale/core/reports/ReportPeriods.ts"
import { InvalidArgumentError } from "commander"
import { Option, Schema } from "effect"

/**
 * Parsers for commander arguments and option values. A bad value throws `InvalidArgumentError`,
 * which commander reports as a usage error (exit code 2) before anything touches the database.
 */

const POSITIVE_INT = /^\d+$/

/**
 * A record id: a positive whole number (`12`, not `12.0`, `-1` or `#12`), decoded into the core's
 * branded id (`OrderId`, `TopupId`, ...) so the commands pass it on without a cast.
 */
export const positiveId = <S extends Schema.ConstraintDecoder<unknown>>(what: string, id: S) => {
  const decode = Schema.decodeUnknownOption(id)
  return (raw: string): S["Type"] => {
    const text = raw.trim().replace(/^#/, "")
    const decoded = POSITIVE_INT.test(text) ? decode(Number(text)) : Option.none()
    if (Option.isNone(decoded)) throw new InvalidArgumentError(`${what} must be a positive whole number, got '${raw}'.`)
    return decoded.value
  }
}

/** A whole number >= `min` (limits, offsets, prices). */
export const wholeNumber =
  (what: string, min: number, max = Number.MAX_SAFE_INTEGER) =>
  (raw: string): number => {
    const text = raw.trim().replace(/_/g, "")
    const n = Number(text)
    if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(n) || n < min || n > max) {
      const range = max === Number.MAX_SAFE_INTEGER ? `at least ${min}` : `between ${min} and ${max}`
      throw new InvalidArgumentError(`${what} must be a whole number ${range}, got '${raw}'.`)
    }
    return n
  }

/** A signed, non-zero whole number of so'm (`500000`, `-20000`, `+1_000`). */
export const signedUzs = (raw: string): number => {
  const text = raw.trim().replace(/_/g, "").replace(/^\+/, "")
  const n = Number(text)
  if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(n) || n === 0) {
    throw new InvalidArgumentError(
      `the amount must be a non-zero whole number of so'm (e.g. 50000 or -20000), got '${raw}'.`
    )
  }
  return n
}

/** A calendar day `YYYY-MM-DD` (Tashkent time is how the commands read it). */
export const localDay =
  (flag: string) =>
  (raw: string): string => {
    const text = raw.trim()
    if (!isLocalDate(text)) throw new InvalidArgumentError(`${flag} must be a date YYYY-MM-DD, got '${raw}'.`)
    return text
  }

/** Text that must not be blank once trimmed. */
export const nonBlank =
  (what: string) =>
  (raw: string): string => {
    if (raw.trim() === "") throw new InvalidArgumentError(`${what} must not be empty.`)
    return raw
  }

/** A user given as a numeric id or as `@username`. */
export type UserRef =
  | { readonly kind: "id"; readonly id: UserId }
  | { readonly kind: "username"; readonly username: string }

export const userRef = (raw: string): UserRef => {
  const text = raw.trim()
  if (text.startsWith("@")) {
    const username = text.slice(1)
    if (!/^[A-Za-z0-9_]{1,64}$/.test(username)) {
      throw new InvalidArgumentError(`'${raw}' is not a username: use @ followed by letters, digits or underscores.`)
    }
    return { kind: "username", username }
  }
  return { kind: "id", id: positiveId("a user (id or @username)", UserId)(text) }
}

/** A decimal TON amount as text (`1.5`), kept as text so it is converted to nanoton exactly. */
export const tonAmount = (raw: string): string => {
  const text = raw.trim()
  if (!/^\d+(\.\d{1,9})?$/.test(text) || /^0+(\.0*)?$/.test(text)) {
    throw new InvalidArgumentError(
      `the amount must be a positive number of TON with at most 9 decimals (e.g. 10 or 1.5), got '${raw}'.`
    )
  }
  return text
}
