/// <reference lib="dom" />
/**
 * The gifts page in headless Chromium, at 360 px and on a desktop, in the three languages: one form
 * with a picker of gift tiles (the gift sender's pictures: drawn SVGs in sandbox), names in the
 * shopper's language where Telegram gives none, nothing wider than the screen; a gift sent from it.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { browser, DESKTOP, person, PHONE, screenshot } from "./support/Browser.ts"
import { andWait, bankPayment, digits, shopperName, signInShopper } from "./support/Flows.ts"
import { WebWorld, webWorldLayer } from "./support/WebWorld.ts"

const NAMES = {
  en: ["Rose", "Teddy bear", "Diamond"],
  ru: ["Роза", "Плюшевый мишка", "Бриллиант"],
  uz: ["Atirgul", "Ayiqcha", "Olmos"]
} as const
const LOCALES = [
  ["en", "en-US"],
  ["ru", "ru-RU"],
  ["uz", "uz-UZ"]
] as const

layer(webWorldLayer(), { timeout: "180 seconds", excludeTestServices: true })("gifts in the browser", (it) => {
  it.effect(
    "one form with a picker of pictured gifts, named in each language, fitting a phone",
    () =>
      Effect.gen(function* () {
        const { url } = yield* WebWorld
        const b = yield* browser
        yield* Effect.promise(async () => {
          for (const [lang, locale] of LOCALES) {
            for (const [size, viewport] of [
              ["phone", PHONE],
              ["desktop", DESKTOP]
            ] as const) {
              const { context, page } = await person(b, url, { locale, viewport })
              await signInShopper(page, shopperName(`gifts_${lang}`))
              await page.goto("/v2/gifts")
              assert.strictEqual(await page.locator("form[action='/v2/gifts/buy']").count(), 1, "one form")
              assert.strictEqual(await page.locator("input[name=username]").count(), 1, "one recipient field")
              const tiles = page.locator("#send-gift .gift")
              assert.strictEqual(await tiles.count(), 10)
              const names = await page.locator(".gift-name").allInnerTexts()
              for (const name of NAMES[lang]) assert.include(names, name, `${lang}: ${name}`)
              // Every picture drew (a data: SVG from the gift sender), none is broken. Waited for: the
              // pictures load lazily, and the page's load event need not wait for a lazy one.
              const drawn = await page
                .waitForFunction(
                  () =>
                    [...document.querySelectorAll<HTMLImageElement>(".gift-picture")].every(
                      (img) => img.complete && img.naturalWidth > 0
                    ),
                  null,
                  { timeout: 10_000 }
                )
                .then(
                  () => true,
                  () => false
                )
              assert.isTrue(drawn, `${lang} ${size}: every picture drawn within 10 s`)
              assert.isTrue(
                await tiles.first().locator("input[type=radio]").isChecked(),
                "a gift is chosen from the start"
              )
              const width = await page.evaluate(() => document.documentElement.scrollWidth)
              assert.isAtMost(width, viewport.width, `${lang} ${size}: no sideways scrolling`)
              await screenshot(page, `gifts-${lang}-${size}`)
              await context.close()
            }
          }
        })
      }),
    170_000
  )

  it.effect(
    "a gift picked on a phone in Uzbek is sent and shows in the orders by its Uzbek name",
    () =>
      Effect.gen(function* () {
        const { url } = yield* WebWorld
        const b = yield* browser
        yield* Effect.promise(async () => {
          const { page } = await person(b, url, { locale: "uz-UZ", viewport: PHONE })
          const name = shopperName("gift_uz")
          await signInShopper(page, name)
          await page.locator("#topup input[name=amount_uzs]").fill("50000")
          await andWait(page, () => page.locator("#topup button[type=submit]").click())
          await page.waitForURL(/#topup-\d+$/)
          await bankPayment(url, digits(await page.locator(".pay-amount .money").textContent()), `bank-${name}`)
          await page.goto("/v2/gifts")
          const form = page.locator("#send-gift")
          await form.locator(".gift", { hasText: "Olmos" }).locator("label").click()
          await form.locator("input[name=username]").fill("dost_uchun")
          await andWait(page, () => form.locator("button[type=submit]").click())
          await page.waitForURL(/\/v2\/orders$/)
          const row = page.locator("[data-order-id]").first()
          assert.include(await row.locator("td").nth(1).innerText(), "Olmos")
          await row.locator('[data-status="completed"]').waitFor({ timeout: 60_000 })
          await screenshot(page, "gifts-uz-phone-sent")
        })
      }),
    170_000
  )
})
