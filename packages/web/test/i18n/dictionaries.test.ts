import { assert, describe, it } from "@effect/vitest"
import { en, type MessageKey } from "../../src/i18n/en.ts"
import { fromAcceptLanguage, negotiateLocale } from "../../src/i18n/Locale.ts"
import {
  DICTIONARIES,
  formatBytes,
  formatDateTime,
  formatUzs,
  SIZE_PARAM,
  translator
} from "../../src/i18n/Translate.ts"

const placeholders = (text: string) => [...new Set([...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))].sort()

describe("dictionaries", () => {
  it("uz, ru and en have the same keys, every message filled, the same parameters", () => {
    const keys = Object.keys(en).sort()
    for (const [locale, messages] of Object.entries(DICTIONARIES)) {
      assert.deepStrictEqual(Object.keys(messages).sort(), keys, locale)
      for (const key of keys) {
        const text = messages[key as MessageKey]
        assert.isAbove(text.trim().length, 0, `${locale} ${key}`)
        assert.deepStrictEqual(placeholders(text), placeholders(en[key as MessageKey]), `${locale} ${key}`)
      }
    }
  })

  it("the three languages really differ where words are shown (no untranslated copy of English)", () => {
    const same = (locale: "uz" | "ru") =>
      Object.keys(en).filter(
        (key) =>
          DICTIONARIES[locale][key as MessageKey] === en[key as MessageKey] && /[a-z]{4,}/.test(en[key as MessageKey])
      )
    // Product names and codes stay as they are; "Panel" and "Telegram username" are Uzbek as well.
    const allowed = new Set(["app.name", "nav.api", "api.title", "kind.premium", "field.username"])
    assert.deepStrictEqual(
      same("ru").filter((k) => !allowed.has(k)),
      []
    )
    assert.deepStrictEqual(
      same("uz").filter((k) => !allowed.has(k) && k !== "nav.admin" && k !== "buy.username"),
      []
    )
  })
})

describe("language negotiation", () => {
  it("takes the best supported language of Accept-Language by q-value and order", () => {
    assert.strictEqual(fromAcceptLanguage("ru-RU,ru;q=0.9,en-US;q=0.8"), "ru")
    assert.strictEqual(fromAcceptLanguage("de-DE,de;q=0.9,en;q=0.8,uz;q=0.7"), "en")
    assert.strictEqual(fromAcceptLanguage("en;q=0.5, uz-Cyrl-UZ;q=0.9"), "uz")
    assert.strictEqual(fromAcceptLanguage("ru;q=0, en"), "en")
    assert.strictEqual(fromAcceptLanguage("fr, de"), undefined)
    assert.strictEqual(fromAcceptLanguage(undefined), undefined)
  })

  it("the cookie wins over the browser; Uzbek when nothing matches", () => {
    assert.strictEqual(negotiateLocale("en", "ru-RU"), "en")
    assert.strictEqual(negotiateLocale("xx", "ru-RU"), "ru")
    assert.strictEqual(negotiateLocale(undefined, "fr-FR"), "uz")
  })
})

describe("formatting", () => {
  it("so'm amounts are grouped by three in each language's way", () => {
    assert.strictEqual(formatUzs(1_234_567, "en"), "1,234,567\u00a0UZS")
    assert.strictEqual(formatUzs(1_234_567, "ru"), "1\u00a0234\u00a0567\u00a0сум")
    assert.strictEqual(formatUzs(999, "uz"), "999\u00a0so‘m")
    assert.strictEqual(formatUzs(-5000, "en"), "−5,000\u00a0UZS")
    assert.strictEqual(formatUzs(0, "ru"), "0\u00a0сум")
  })

  it("a size limit is told in its largest unit, rounded down to a tenth, with the language's mark and units", () => {
    assert.strictEqual(formatBytes(5 * 1024 * 1024, "en"), "5\u00a0MB")
    assert.strictEqual(formatBytes(5 * 1024 * 1024, "ru"), "5\u00a0МБ")
    assert.strictEqual(formatBytes(6 * 1024 * 1024 - 1, "en"), "5.9\u00a0MB")
    assert.strictEqual(formatBytes(1536, "ru"), "1,5\u00a0КБ")
    assert.strictEqual(formatBytes(100, "uz"), "100\u00a0B")
    // The receipt's label and refusal: the limit given as a parameter, in the reader's language.
    assert.strictEqual(
      translator("ru").t("error.receiptLarge", { size: `${SIZE_PARAM}${2 * 1024 * 1024}` }),
      "Чек слишком большой: не более 2\u00a0МБ."
    )
    assert.strictEqual(
      translator("en").t("receipt.file", { size: translator("en").size(512 * 1024) }),
      "Receipt (image or PDF, up to 512\u00a0KB)"
    )
  })

  it("times are shown in Tashkent time (UTC+5)", () => {
    assert.strictEqual(formatDateTime("2026-11-25T22:17:05.000Z"), "2026-11-26 03:17")
    assert.strictEqual(formatDateTime(null), "—")
    assert.strictEqual(formatDateTime("nonsense"), "—")
  })

  it("plural forms follow each language's rules; money and message parameters render in the reader's language", () => {
    const ru = translator("ru")
    assert.deepStrictEqual(
      [1, 2, 5, 21, 1000].map((n) => ru.t("order.stars", { n })),
      ["1 звезда", "2 звезды", "5 звёзд", "21 звезда", "1\u00a0000 звёзд"]
    )
    const en = translator("en")
    assert.deepStrictEqual(
      [1, 50].map((n) => en.t("order.stars", { n })),
      ["1 star", "50 stars"]
    )
    assert.strictEqual(translator("uz").t("order.stars", { n: 50 }), "50 yulduz")
    assert.strictEqual(
      ru.t("error.insufficient", { required: "uzs:11500", balance: "uzs:0" }),
      "Недостаточно средств: нужно 11\u00a0500\u00a0сум, на балансе 0\u00a0сум."
    )
    assert.strictEqual(
      en.t("error.orderState", { from: "msg:status.order.completed", to: "msg:status.order.queued" }),
      "This order is Delivered, so it cannot be Queued."
    )
  })
})
