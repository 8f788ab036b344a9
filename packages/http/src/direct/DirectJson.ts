/**
 * JSON text of the direct surface's success answers. TON amounts are JSON numbers (what clients of
 * such services read), written as the exact decimal of their nanoton (`0.466420801`), never through a
 * JS number: a double holds 15-17 significant digits, so 123456789.123456789 TON would lose nanotons.
 */
import { formatTon, type Nanoton, tonNumber } from "@resale/core/money/Nanoton.ts"

/** A TON amount in an answer. Any other serializer (`toJSON`) gets the nearest JS number. */
export class TonAmount {
  readonly nanoton: Nanoton
  constructor(nanoton: Nanoton) {
    this.nanoton = nanoton
  }
  /** The JSON number text: whole TON, then up to 9 decimals without trailing zeros; no exponent. */
  get text(): string {
    return formatTon(this.nanoton)
  }
  toJSON(): number {
    return tonNumber(this.nanoton)
  }
}

export const tonAmount = (nanoton: Nanoton): TonAmount => new TonAmount(nanoton)

/** `JSON.stringify` for the plain data of an answer, with every `TonAmount` written as its exact text. */
export const answerJson = (value: unknown): string => {
  if (value instanceof TonAmount) return value.text
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? "null" : answerJson(v))).join(",")}]`
  if (typeof value === "object" && value !== null && !("toJSON" in value)) {
    const fields = Object.entries(value).filter(([, v]) => v !== undefined && typeof v !== "function")
    return `{${fields.map(([k, v]) => `${JSON.stringify(k)}:${answerJson(v)}`).join(",")}}`
  }
  return JSON.stringify(value) ?? "null"
}
