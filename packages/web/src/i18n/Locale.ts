/** The three languages of the web UI and how a request chooses one. */
export const LOCALES = ["uz", "ru", "en"] as const
export type Locale = (typeof LOCALES)[number]

/** Shoppers are in Uzbekistan: a browser that names none of our languages gets Uzbek. */
export const DEFAULT_LOCALE: Locale = "uz"

/** Cookie remembering the language picked in the switcher (a preference, not a secret). */
export const LOCALE_COOKIE = "resale_lang"

export const isLocale = (value: unknown): value is Locale =>
  typeof value === "string" && (LOCALES as ReadonlyArray<string>).includes(value)

/** The language's own name, shown in the switcher. */
export const LOCALE_NAMES: Record<Locale, string> = { uz: "O‘zbekcha", ru: "Русский", en: "English" }

/** Two-letter labels for narrow screens (the full name stays readable to screen readers). */
export const LOCALE_SHORT: Record<Locale, string> = { uz: "UZ", ru: "RU", en: "EN" }

/** BCP 47 tags for `lang` attributes. */
export const LOCALE_TAGS: Record<Locale, string> = { uz: "uz-Latn", ru: "ru", en: "en" }

/**
 * Best supported language of an `Accept-Language` header, by q-value then order
 * (`uz-Cyrl-UZ`, `ru-RU;q=0.8` and `en-GB` all count for their primary language).
 */
export const fromAcceptLanguage = (header: string | undefined): Locale | undefined => {
  if (!header) return undefined
  const ranked = header
    .split(",")
    .map((part, index) => {
      const [range = "", ...params] = part.trim().split(";")
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="))
      const weight = q === undefined ? 1 : Number(q.slice(2))
      return {
        primary: range.trim().toLowerCase().split("-")[0] ?? "",
        weight: Number.isFinite(weight) ? weight : 0,
        index
      }
    })
    .filter((entry) => entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
  return ranked.map((entry) => entry.primary).find(isLocale)
}

/** The cookie wins (the user chose), then the browser's languages, then the default. */
export const negotiateLocale = (cookie: string | undefined, acceptLanguage: string | undefined): Locale =>
  isLocale(cookie) ? cookie : (fromAcceptLanguage(acceptLanguage) ?? DEFAULT_LOCALE)
