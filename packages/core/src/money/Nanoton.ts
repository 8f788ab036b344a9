import { Schema } from "effect"

/** An amount of TON in nanoton (1 TON = 10^9 nanoton): a non-negative bigint, branded. */
export const Nanoton = Schema.BigInt.check(Schema.isGreaterThanOrEqualToBigInt(0n)).pipe(Schema.brand("Nanoton"))
export type Nanoton = typeof Nanoton.Type

export const NANOTON_PER_TON = 1_000_000_000n
const DECIMALS = 9

export class NanotonParseError extends Schema.TaggedError<NanotonParseError>()("NanotonParseError", {
  reason: Schema.Literals(["Malformed", "Negative", "TooManyDecimals", "TooLarge"]),
  message: Schema.String
}) {}

/** Largest amount accepted from text: far above all TON in existence, keeps values within uint64-ish ranges. */
export const MAX_NANOTON = 2n ** 63n - 1n

export const nanoton = (n: bigint): Nanoton => Nanoton.make(n)

const DECIMAL = /^(\d+)(?:\.(\d*))?$|^\.(\d+)$/

/**
 * Exact decimal TON text ("1.5", "0.000000001", "12") to nanoton, digit by digit: no float is ever
 * involved. Pass the request's decimal text (not a JS number) to keep it exact.
 */
export const parseNanoton = (text: string): NanotonParseError | Nanoton => {
  const s = text.trim()
  if (s.startsWith("-")) {
    return new NanotonParseError({ reason: "Negative", message: "amount must not be negative" })
  }
  const body = s.startsWith("+") ? s.slice(1) : s
  const m = DECIMAL.exec(body)
  if (m === null) {
    return new NanotonParseError({ reason: "Malformed", message: "amount must be a decimal number" })
  }
  const whole = m[1] ?? "0"
  const frac = m[2] ?? m[3] ?? ""
  if (frac.length > DECIMALS) {
    return new NanotonParseError({ reason: "TooManyDecimals", message: "amount has more than 9 decimals" })
  }
  const value = BigInt(whole) * NANOTON_PER_TON + BigInt(frac.padEnd(DECIMALS, "0") || "0")
  if (value > MAX_NANOTON) {
    return new NanotonParseError({ reason: "TooLarge", message: "amount is too large" })
  }
  return value as Nanoton
}

/** Like {@link parseNanoton} but throws: for constants in code and tests. */
export const nanotonFromDecimal = (text: string): Nanoton => {
  const r = parseNanoton(text)
  if (r instanceof NanotonParseError) throw new Error(`invalid TON amount: ${r.message}`)
  return r
}

/**
 * A JS number from a JSON body to nanoton: through its shortest round-trip decimal text, which is
 * what the sender wrote for any amount with at most 9 decimals (1.5 -> "1.5", 1e-9 -> "1e-9" is
 * expanded first). Never multiplies a float.
 */
export const parseNanotonNumber = (n: number): NanotonParseError | Nanoton => {
  if (!Number.isFinite(n)) {
    return new NanotonParseError({ reason: "Malformed", message: "amount must be a finite number" })
  }
  return parseNanoton(expandExponent(String(n)))
}

// "1e-9" / "1.5e+21" -> plain decimal text, by moving the point in the digit string.
const expandExponent = (s: string): string => {
  const m = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(s)
  if (m === null) return s
  const [, sign, int = "", frac = "", expText = "0"] = m
  const exp = Number(expText)
  const digits = int + frac
  const point = int.length + exp
  if (point <= 0) return `${sign}0.${"0".repeat(-point)}${digits}`
  if (point >= digits.length) return `${sign}${digits}${"0".repeat(point - digits.length)}`
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`
}

/** Nanoton to decimal TON text without trailing zeros: 1_500_000_000n -> "1.5", 0n -> "0". */
export const formatTon = (amount: Nanoton | bigint): string => {
  const negative = amount < 0n
  const abs = negative ? -amount : amount
  const whole = abs / NANOTON_PER_TON
  const frac = (abs % NANOTON_PER_TON).toString().padStart(DECIMALS, "0").replace(/0+$/, "")
  return `${negative ? "-" : ""}${whole}${frac === "" ? "" : `.${frac}`}`
}

/**
 * Nanoton as the nearest JS number of TON, read from its exact decimal text (never a float division);
 * it prints back as that text below 10^15 nanoton (15 significant digits). Display only.
 */
export const tonNumber = (amount: Nanoton): number => Number(formatTon(amount))
