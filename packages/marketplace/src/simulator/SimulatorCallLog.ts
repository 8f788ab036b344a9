/**
 * What the simulator logs of the requests it answered (api calls, page loads), for tests to read.
 * A sandbox server answers shoppers for days, so a log keeps only its newest entries, and a signed
 * message (tens of kilobytes per wallet batch) is logged as its length and digest, never its text.
 * Nothing in production reads these logs (tests do, through `SimulatorControl`), hence a constant
 * rather than a setting: one test's run stays far below it.
 */
import { createHash } from "node:crypto"

/** entries kept per log: the newest ones */
export const CALL_LOG_LIMIT = 1000

/** a field longer than this is logged as its digest (the signed message always is) */
const LONG_FIELD = 2048

/** How a signed message or a long field appears in the log: its length and SHA-256, not its text. */
export const fieldDigest = (value: string): string =>
  `${value.length} chars, sha256 ${createHash("sha256").update(value).digest("hex")}`

/** The fields as logged: `boc` (the signed message) and any long field replaced by its digest. */
export const loggedFields = (fields: Readonly<Record<string, string>>): Readonly<Record<string, string>> =>
  Object.fromEntries(
    Object.entries(fields).map(([name, value]) => [
      name,
      name === "boc" || value.length > LONG_FIELD ? fieldDigest(value) : value
    ])
  )

/** The newest `limit` entries, in the order they came; older ones are dropped. */
export class BoundedLog<T> {
  private readonly entries: Array<T> = []
  readonly limit: number

  constructor(limit: number = CALL_LOG_LIMIT) {
    this.limit = limit
  }

  push(entry: T): void {
    this.entries.push(entry)
    // one at a time, so at most one entry is dropped per push (a cheap shift of `limit` slots)
    if (this.entries.length > this.limit) this.entries.shift()
  }

  all(): Array<T> {
    return [...this.entries]
  }

  get length(): number {
    return this.entries.length
  }

  clear(): void {
    this.entries.length = 0
  }
}
