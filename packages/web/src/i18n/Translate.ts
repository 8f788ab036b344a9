import { en, type MessageKey, type Messages } from "./en.ts"
import type { Locale } from "./Locale.ts"
import { ru } from "./ru.ts"
import { uz } from "./uz.ts"

export const DICTIONARIES: Record<Locale, Messages> = { uz, ru, en }

/** Plural categories in the order a message lists its `a|b|c` forms. */
export const PLURAL_ORDER: Record<Locale, ReadonlyArray<Intl.LDMLPluralRule>> = {
  uz: ["one", "other"],
  ru: ["one", "few", "many", "other"],
  en: ["one", "other"]
}

/**
 * How a whole number of so'm is written: digits grouped by three with a no-break space (Uzbek
 * and Russian custom) or a comma (English), then the unit. The client script formats the same way.
 */
export const MONEY_FORMAT: Record<Locale, { readonly group: string; readonly unit: string }> = {
  uz: { group: "\u00a0", unit: "so‘m" },
  ru: { group: "\u00a0", unit: "сум" },
  en: { group: ",", unit: "UZS" }
}

export const groupDigits = (n: number, group: string): string => {
  const digits = Math.trunc(Math.abs(n))
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, group)
  return n < 0 ? `−${digits}` : digits
}

export const formatUzs = (amount: number, locale: Locale): string => {
  const { group, unit } = MONEY_FORMAT[locale]
  return `${groupDigits(amount, group)}\u00a0${unit}`
}

/** File sizes: the decimal mark and the units (bytes, KB, MB; 1 KB = 1024 bytes) of each language. */
const SIZE_FORMAT: Record<Locale, { readonly mark: string; readonly units: readonly [string, string, string] }> = {
  uz: { mark: ",", units: ["B", "KB", "MB"] },
  ru: { mark: ",", units: ["Б", "КБ", "МБ"] },
  en: { mark: ".", units: ["B", "KB", "MB"] }
}

/**
 * A size limit in the largest unit it reaches, rounded down to a tenth so "at most" stays true:
 * 5 MB, 0.5 MB is 512 KB, 100 bytes stay 100 B.
 */
export const formatBytes = (bytes: number, locale: Locale): string => {
  const { mark, units } = SIZE_FORMAT[locale]
  const power = bytes >= 1024 * 1024 ? 2 : bytes >= 1024 ? 1 : 0
  const tenths = Math.floor((bytes / 1024 ** power) * 10)
  const whole = groupDigits(Math.floor(tenths / 10), MONEY_FORMAT[locale].group)
  const figure = tenths % 10 === 0 ? whole : `${whole}${mark}${tenths % 10}`
  return `${figure}\u00a0${units[power]}`
}

/** Uzbekistan keeps UTC+5 all year, so times are shown in Tashkent time without a zone database. */
const TASHKENT_OFFSET_MS = 5 * 60 * 60 * 1000

/** `2026-11-25 22:17` in Tashkent time, the same for every language. */
export const formatDateTime = (iso: string | null | undefined): string => {
  if (!iso) return "—"
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return "—"
  return new Date(date.getTime() + TASHKENT_OFFSET_MS).toISOString().slice(0, 16).replace("T", " ")
}

export type Params = Readonly<Record<string, string | number>>

export interface Translator {
  readonly locale: Locale
  readonly t: (key: MessageKey, params?: Params) => string
  readonly uzs: (amount: number) => string
  readonly number: (n: number) => string
  /** A file size limit: `formatBytes`. */
  readonly size: (bytes: number) => string
}

const pluralRules: Partial<Record<Locale, Intl.PluralRules>> = {}

const pick = (locale: Locale, forms: ReadonlyArray<string>, n: number): string => {
  const rules = (pluralRules[locale] ??= new Intl.PluralRules(locale))
  const index = PLURAL_ORDER[locale].indexOf(rules.select(n))
  return forms[index >= 0 && index < forms.length ? index : forms.length - 1] ?? ""
}

/** Fills `{name}` parameters; `a|b` forms are chosen by the numeric parameter `n`. */
export const interpolate = (locale: Locale, message: string, params: Params = {}): string => {
  const n = params["n"]
  const chosen = message.includes("|") && typeof n === "number" ? pick(locale, message.split("|"), n) : message
  return chosen.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name]
    // Counts read better grouped (1 000 stars); ids stay as they are (order #1234).
    if (typeof value === "number") return name === "n" ? groupDigits(value, MONEY_FORMAT[locale].group) : String(value)
    return value === undefined ? whole : value
  })
}

/** A parameter `uzs:12500` renders as money, `bytes:5242880` as a size, `msg:status.order.failed` as that message. */
export const MONEY_PARAM = "uzs:"
export const SIZE_PARAM = "bytes:"
export const MESSAGE_PARAM = "msg:"

export const translator = (locale: Locale): Translator => {
  const messages = DICTIONARIES[locale]
  const resolve = (value: string | number): string | number => {
    if (typeof value !== "string") return value
    if (value.startsWith(MONEY_PARAM)) return formatUzs(Number(value.slice(MONEY_PARAM.length)), locale)
    if (value.startsWith(SIZE_PARAM)) return formatBytes(Number(value.slice(SIZE_PARAM.length)), locale)
    if (value.startsWith(MESSAGE_PARAM)) {
      const key = value.slice(MESSAGE_PARAM.length) as MessageKey
      return messages[key] ?? key
    }
    return value
  }
  return {
    locale,
    t: (key, params) =>
      interpolate(
        locale,
        messages[key] ?? en[key],
        params && Object.fromEntries(Object.entries(params).map(([name, value]) => [name, resolve(value)]))
      ),
    uzs: (amount) => formatUzs(amount, locale),
    number: (n) => groupDigits(n, MONEY_FORMAT[locale].group),
    size: (bytes) => formatBytes(bytes, locale)
  }
}
