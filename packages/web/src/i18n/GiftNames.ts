import type { Locale } from "./Locale.ts"

/**
 * Names of Telegram's standard star gifts in each language. Telegram gives these gifts no title
 * (they are known by their sticker), so the shop names them itself; a gift Telegram does name keeps
 * Telegram's title.
 */
const NAMES: Readonly<Record<string, Readonly<Record<Locale, string>>>> = {
  "5170145012310081615": { en: "Heart", ru: "Сердце", uz: "Yurak" },
  "5170233102089322756": { en: "Teddy bear", ru: "Плюшевый мишка", uz: "Ayiqcha" },
  "5170250947678437525": { en: "Gift box", ru: "Подарочная коробка", uz: "Sovg‘a qutisi" },
  "5168103777563050263": { en: "Rose", ru: "Роза", uz: "Atirgul" },
  "5170144170496491616": { en: "Cake", ru: "Торт", uz: "Tort" },
  "5170314324215857265": { en: "Bouquet", ru: "Букет", uz: "Guldasta" },
  "5170564780938756245": { en: "Rocket", ru: "Ракета", uz: "Raketa" },
  "5168043875654172773": { en: "Trophy", ru: "Кубок", uz: "Kubok" },
  "5170690322832818290": { en: "Ring", ru: "Кольцо", uz: "Uzuk" },
  "5170521118301225164": { en: "Diamond", ru: "Бриллиант", uz: "Olmos" }
}

/** A gift's name in `locale`: ours for Telegram's standard gifts, else the title it came with. */
export const giftName = (locale: Locale, id: string, title: string | undefined): string =>
  NAMES[id]?.[locale] ?? title ?? `#${id}`
