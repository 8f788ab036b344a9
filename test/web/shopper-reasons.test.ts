/// <reference lib="dom" />
/**
 * A shopper on a phone never reads an internal error: each sandbox test recipient that ends failed
 * (`sandbox_not_found`, `sandbox_gift_refused`, `sandbox_timeout` at the attempt limit) shows on the
 * orders page a sentence in the page's language saying what happened, that the balance was refunded
 * and what to do, in Uzbek, Russian and English; the worker's text stays the operators'. One world and
 * one shopper; the same three orders are read in each language. Short retries: the timeout order gives
 * up after its second attempt, seconds apart.
 */
import { assert, layer } from "@effect/vitest"
import { LOCALE_TAGS } from "@resale/web/i18n/Locale.ts"
import { DICTIONARIES } from "@resale/web/i18n/Translate.ts"
import { Duration, Effect } from "effect"
import type { Page } from "playwright-core"
import { browser, person, PHONE, screenshot } from "./support/Browser.ts"
import { andWait, bankPayment, digits, shopperName, shownBalance, signInShopper } from "./support/Flows.ts"
import { WebWorld, webWorldLayer } from "./support/WebWorld.ts"

const world = webWorldLayer({ retryDelay: Duration.seconds(1), maxAttempts: 2 })

/** What each recipient's order ends with: its code and the sentence's key. */
const EXPECTED = [
  ["sandbox_not_found", "recipient_not_found"],
  ["sandbox_gift_refused", "gift_refused"],
  ["sandbox_timeout", "marketplace_timeout"]
] as const

/** The worker's words and the foreign service's, which a shopper must never read. */
const RAW = /Marketplace|Fragment|RecipientNotFound|search|gift not sent|gave up|attempts|Timeout|Rejected/

/** Latin words of four letters or more, product names aside (they read the same in every language). */
const words = (text: string) => (text.match(/[A-Za-z]{4,}/g) ?? []).filter((w) => w !== "Telegram" && w !== "Premium")

/** Every word of the English sentences: none may show on an Uzbek or Russian page's reason. */
const englishWords = new Set(
  Object.entries(DICTIONARIES.en).flatMap(([key, text]) => (key.startsWith("orders.failure.") ? words(text) : []))
)

const topUp = async (page: Page, url: string, name: string): Promise<number> => {
  await page.goto("/v2/dashboard")
  await page.locator("#topup input[name=amount_uzs]").fill("200000")
  await andWait(page, () => page.locator("#topup button[type=submit]").click())
  await page.waitForURL(/#topup-\d+$/)
  const payable = digits(await page.locator(".pay-amount .money").textContent())
  await bankPayment(url, payable, `bank-${name}`)
  await page.waitForFunction(
    (n) => document.getElementById("balance")?.getAttribute("data-balance") === String(n),
    payable
  )
  return payable
}

/** Places the order from its form (stars on the dashboard, a gift on the gifts page); answers its id. */
const order = async (page: Page, recipient: string): Promise<string> => {
  const gift = recipient.startsWith("sandbox_gift")
  await page.goto(gift ? "/v2/gifts" : "/v2/dashboard")
  const form = page.locator(gift ? "#send-gift" : "#buy-stars")
  await form.locator("input[name=username]").fill(recipient)
  await andWait(page, () => form.locator("button[type=submit]").click())
  await page.waitForURL(/\/v2\/orders$/)
  return (await page
    .locator("[data-order-id]", { hasText: `@${recipient}` })
    .first()
    .getAttribute("data-order-id"))!
}

const failed = (page: Page, id: string) =>
  page.locator(`[data-order-id="${id}"] [data-status="failed"]`).waitFor({ timeout: 90_000 })

const reasonOf = (page: Page, id: string) => page.locator(`[data-order-id="${id}"] [data-order-reason]`)

layer(world, { timeout: "240 seconds", excludeTestServices: true })("failure reasons in the shopper's words", (it) => {
  it.effect(
    "each failed test recipient reads as a refunded sentence in uz, ru and en, never the worker's text",
    () =>
      Effect.gen(function* () {
        const { url } = yield* WebWorld
        const b = yield* browser
        yield* Effect.promise(async () => {
          const { page } = await person(b, url, { viewport: PHONE })
          const name = shopperName("reasons")
          await signInShopper(page, name)
          const credited = await topUp(page, url, name)
          // One after another: a slow search holds a marketplace session, so it goes last.
          const ids: Record<string, string> = {}
          for (const [recipient] of EXPECTED) {
            ids[recipient] = await order(page, recipient)
            if (recipient !== "sandbox_timeout") await failed(page, ids[recipient]!)
          }
          // The page turns the timeout order failed by itself: the live script writes the sentence too.
          const timeout = ids["sandbox_timeout"]!
          await failed(page, timeout)
          const live = reasonOf(page, timeout)
          assert.strictEqual(await live.getAttribute("data-order-failure"), "marketplace_timeout")
          assert.strictEqual(await live.innerText(), DICTIONARIES.en["orders.failure.marketplace_timeout"])
          // Every order failed and was refunded: the balance is what was credited.
          await page.goto("/v2/dashboard")
          assert.strictEqual(await shownBalance(page), credited)

          for (const locale of ["uz", "ru", "en"] as const) {
            await page.goto(`/v2/lang?to=${locale}&back=/v2/orders`)
            await page.waitForURL(/\/v2\/orders$/)
            assert.strictEqual(await page.getAttribute("html", "lang"), LOCALE_TAGS[locale])
            for (const [recipient, code] of EXPECTED) {
              const reason = reasonOf(page, ids[recipient]!)
              const text = await reason.innerText()
              assert.strictEqual(await reason.getAttribute("data-order-failure"), code, `${locale} ${recipient}`)
              assert.strictEqual(text, DICTIONARIES[locale][`orders.failure.${code}`], `${locale} ${recipient}`)
              if (locale !== "en")
                assert.deepStrictEqual(
                  words(text).filter((word) => englishWords.has(word)),
                  [],
                  `${locale} ${recipient}: no English`
                )
            }
            const table = await page.locator("#orders-table").innerText()
            assert.notMatch(table, RAW, locale)
            const width = await page.evaluate(() => document.documentElement.scrollWidth)
            assert.isAtMost(width, PHONE.width, `${locale}: no sideways scrolling`)
            await screenshot(page, `shopper-reasons-${locale}-phone`)
          }
        })
      }),
    200_000
  )
})
