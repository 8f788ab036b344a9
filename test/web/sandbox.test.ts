/// <reference lib="dom" />
/**
 * Sandbox mode's help page in headless Chromium, at 360 px and on a desktop, in the three languages:
 * the test recipients that fail on purpose (one of them ordered: refused, refunded once), and push
 * without a push service: the shopper turns on the server's own push receiver, a top-up is credited,
 * and the worker's real web push (VAPID-signed, aes128gcm) arrives decrypted in the inbox.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { browser, DESKTOP, person, PHONE, screenshot } from "./support/Browser.ts"
import { andWait, bankPayment, digits, shopperName, shownBalance, signInShopper } from "./support/Flows.ts"
import { WebWorld, webWorldLayer } from "./support/WebWorld.ts"

const LOCALES = [
  ["en", "en-US"],
  ["ru", "ru-RU"],
  ["uz", "uz-UZ"]
] as const

layer(webWorldLayer(), { timeout: "180 seconds", excludeTestServices: true })("the sandbox help page", (it) => {
  it.effect(
    "lists the test recipients in every language and fits a phone",
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
              await signInShopper(page, shopperName(`help_${lang}`))
              await andWait(page, () => page.locator(".sandbox a[href='/v2/sandbox']").click())
              await page.waitForURL(/\/v2\/sandbox$/)
              assert.strictEqual(
                await page
                  .locator("html")
                  .getAttribute("lang")
                  .then((l) => l?.slice(0, 2)),
                lang
              )
              const rows = page.locator("[data-recipient]")
              assert.strictEqual(await rows.count(), 7)
              assert.strictEqual(await rows.first().locator("code").innerText(), "sandbox_not_found")
              const width = await page.evaluate(() => document.documentElement.scrollWidth)
              assert.isAtMost(width, viewport.width, `${lang} ${size}: no sideways scrolling`)
              await screenshot(page, `sandbox-help-${lang}-${size}`)
              await context.close()
            }
          }
        })
      }),
    170_000
  )

  it.effect(
    "an order for sandbox_not_found is refused and refunded once; the inbox receives the real web push",
    () =>
      Effect.gen(function* () {
        const { url } = yield* WebWorld
        const b = yield* browser
        yield* Effect.promise(async () => {
          const { page } = await person(b, url, { viewport: PHONE })
          const name = shopperName("inbox")
          await signInShopper(page, name)
          await page.goto("/v2/sandbox")
          assert.strictEqual(await page.locator("[data-notice]").count(), 0)
          await andWait(page, () => page.getByRole("button", { name: "Receive my notifications here" }).click())
          await page.waitForURL(/\/v2\/sandbox#push-inbox$/)
          assert.match(await page.getByRole("status").first().innerText(), /sandbox inbox/)
          await page.locator("#inbox-on").waitFor()

          // A top-up credited by the bank relay: the worker pushes "credited" to the inbox.
          await page.goto("/v2/dashboard")
          await page.locator("#topup").getByLabel("Amount, UZS").fill("20000")
          await andWait(page, () => page.getByRole("button", { name: "Get payment details" }).click())
          await page.waitForURL(/#topup-\d+$/)
          const payable = digits(await page.locator(".pay-amount .money").textContent())
          await bankPayment(url, payable, `bank-${name}`)
          await page.waitForFunction(
            (n) => document.getElementById("balance")?.getAttribute("data-balance") === String(n),
            payable
          )

          // The test recipient that Fragment does not find: the order fails and the money comes back once.
          const stars = page.locator("#buy-stars")
          await stars.getByLabel("Telegram username").fill("sandbox_not_found")
          await andWait(page, () => stars.getByRole("button", { name: "Buy stars" }).click())
          await page.waitForURL(/\/v2\/orders$/)
          const row = page.locator("[data-order-id]").first()
          await row.locator('[data-status="failed"]').waitFor({ timeout: 60_000 })
          await page.goto("/v2/dashboard")
          assert.strictEqual(await shownBalance(page), payable)

          // The pushes arrived, decrypted: reload the inbox until they are listed.
          let notices = 0
          for (let i = 0; i < 60 && notices === 0; i++) {
            await page.goto("/v2/sandbox")
            notices = await page.locator("[data-notice]").count()
            if (notices === 0) await page.waitForTimeout(500)
          }
          assert.isAtLeast(notices, 1)
          assert.match(await page.locator("#inbox").innerText(), /credited|refunded|Top-up/i)
          await screenshot(page, "sandbox-push-inbox-phone")
        })
      }),
    170_000
  )
})
