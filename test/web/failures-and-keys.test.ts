/// <reference lib="dom" />
/**
 * Where a shopper looks: a refused form answers beside that form (focused, read out, what was typed
 * kept) at 360 px and on a desktop in all three languages; the API key is replaced only after a
 * confirmation and shown once (reloading shows no key and replaces nothing); `/` leads to the shop.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { browser, DESKTOP, person, PHONE, screenshot } from "./support/Browser.ts"
import { andWait, shopperName, signInShopper } from "./support/Flows.ts"
import { WebWorld, webWorldLayer } from "./support/WebWorld.ts"

const NOT_ENOUGH = {
  "en-US": "Not enough balance: 11,500\u00a0UZS needed, you have 0\u00a0UZS.",
  "ru-RU": "Недостаточно средств: нужно 11\u00a0500\u00a0сум, на балансе 0\u00a0сум.",
  "uz-UZ": "Mablag‘ yetarli emas: 11\u00a0500\u00a0so‘m kerak, balansda 0\u00a0so‘m."
} as const

layer(webWorldLayer(), { timeout: "180 seconds", excludeTestServices: true })(
  "failures where the shopper looks; the key shown once",
  (it) => {
    it.effect(
      "a refused purchase answers inside its form, focused and announced, with the username and amount kept",
      () =>
        Effect.gen(function* () {
          const { url } = yield* WebWorld
          const b = yield* browser
          yield* Effect.promise(async () => {
            for (const viewport of [PHONE, DESKTOP]) {
              for (const locale of ["en-US", "ru-RU", "uz-UZ"] as const) {
                const { context, page } = await person(b, url, { locale, viewport })
                await signInShopper(page, shopperName("short"))
                const stars = page.locator("#buy-stars")
                await stars.locator("input[name=username]").fill("durov")
                await stars.locator("input[name=amount]").fill("50")
                await andWait(page, () => stars.locator("button[type=submit]").click())
                await page.waitForURL(/\/v2\/dashboard#buy-stars$/)

                // The message is the first thing in the form's own card, and it has the focus.
                const alert = stars.getByRole("alert")
                assert.strictEqual(await alert.innerText(), NOT_ENOUGH[locale])
                assert.strictEqual(await page.getByRole("alert").count(), 1, "no second copy at the top of the page")
                await page.waitForFunction(() => document.activeElement?.id === "flash")
                const box = (await alert.boundingBox())!
                assert.isAtLeast(box.y, 0)
                assert.isAtMost(box.y + box.height, viewport.height, "the message is on screen")
                // What was typed is still there.
                assert.strictEqual(await stars.locator("input[name=username]").inputValue(), "durov")
                assert.strictEqual(await stars.locator("input[name=amount]").inputValue(), "50")

                // A second try with other values keeps those values too.
                await stars.locator("input[name=username]").fill("pavel_d")
                await stars.locator("input[name=amount]").fill("120")
                await andWait(page, () => stars.locator("button[type=submit]").click())
                assert.strictEqual(await stars.locator("input[name=username]").inputValue(), "pavel_d")
                assert.strictEqual(await stars.locator("input[name=amount]").inputValue(), "120")
                // The other forms are untouched.
                assert.strictEqual(await page.locator("#buy-premium input[name=username]").inputValue(), "")
                await screenshot(page, `failure-beside-form-${locale}-${viewport.width}`)
                await context.close()
              }
            }
          })
        })
    )

    it.effect("premium and top-up forms answer in place too, and the message goes on the next load", () =>
      Effect.gen(function* () {
        const { url } = yield* WebWorld
        const b = yield* browser
        yield* Effect.promise(async () => {
          const { page } = await person(b, url, { viewport: PHONE })
          await signInShopper(page, shopperName("premium"))
          const premium = page.locator("#buy-premium")
          await premium.locator("input[name=username]").fill("durov")
          await premium.locator("select[name=duration]").selectOption("6")
          await andWait(page, () => premium.locator("button[type=submit]").click())
          await page.waitForURL(/#buy-premium$/)
          assert.match(await premium.getByRole("alert").innerText(), /^Not enough balance/)
          assert.strictEqual(await premium.locator("select[name=duration]").inputValue(), "6")
          assert.strictEqual(await premium.locator("input[name=username]").inputValue(), "durov")

          await page.evaluate(() => document.querySelectorAll("form").forEach((f) => (f.noValidate = true)))
          await page.locator("#topup input[name=amount_uzs]").fill("500")
          await andWait(page, () => page.locator("#topup button[type=submit]").click())
          assert.match(await page.locator("#topup").getByRole("alert").innerText(), /^The amount must be between/)
          assert.strictEqual(await page.locator("#topup input[name=amount_uzs]").inputValue(), "500")

          await page.reload()
          assert.strictEqual(await page.getByRole("alert").count(), 0)
        })
      })
    )

    it.effect("a gift card and a ticket reply answer their failures in place too, with what was typed kept", () =>
      Effect.gen(function* () {
        const { url } = yield* WebWorld
        const b = yield* browser
        yield* Effect.promise(async () => {
          const { page } = await person(b, url, { viewport: PHONE, locale: "ru-RU" })
          await signInShopper(page, shopperName("gifter"))
          await page.goto("/v2/gifts")
          const form = page.locator("#send-gift")
          const rose = form.locator(".gift", { hasText: "Роза" })
          await rose.locator("label").click()
          await form.locator("input[name=username]").fill("durov")
          await form.locator("textarea, input[name=comment]").first().fill("С днём рождения!")
          await andWait(page, () => form.locator("button[type=submit]").click())
          assert.match(page.url(), /\/v2\/gifts#send-gift$/)
          assert.match(await form.getByRole("alert").innerText(), /^Недостаточно средств/)
          assert.strictEqual(await form.locator("input[name=username]").inputValue(), "durov")
          assert.isTrue(await rose.locator("input[type=radio]").isChecked(), "the chosen gift stays chosen")
          assert.strictEqual(await page.getByRole("alert").count(), 1)
          await screenshot(page, "failure-gift-ru-360")

          await page.goto("/v2/tickets")
          await page.locator("#new-ticket input[name=subject]").fill("Вопрос")
          await page.locator("#new-ticket textarea[name=body]").fill("Где мои звёзды?")
          await andWait(page, () => page.locator("#new-ticket button[type=submit]").click())
          await page.waitForURL(/\/v2\/tickets\/\d+/)
          await page.evaluate(() => document.querySelectorAll("form").forEach((f) => (f.noValidate = true)))
          await page.locator("#reply textarea[name=body]").fill("   ")
          await andWait(page, () => page.locator("#reply button[type=submit]").click())
          assert.match(page.url(), /#reply$/)
          assert.strictEqual(await page.locator("#reply").getByRole("alert").innerText(), "Напишите сообщение.")
        })
      })
    )

    it.effect("replacing the API key asks first, shows the new key once, and a reload replaces nothing", () =>
      Effect.gen(function* () {
        const { url } = yield* WebWorld
        const b = yield* browser
        yield* Effect.promise(async () => {
          const { page } = await person(b, url, { viewport: PHONE })
          await signInShopper(page, shopperName("keys"))
          await page.goto("/v2/api-docs")
          await andWait(page, () => page.getByRole("link", { name: "Create a key" }).click())
          await page.waitForURL(/\/v2\/api-key\/confirm$/)
          await andWait(page, () => page.getByRole("button", { name: "Create a key" }).click())
          const first = await page.locator("#api-key").innerText()

          // The page that shows the key is not kept by the browser, and a reload shows no key.
          const shown = await page.request.get("/v2/api-key/new", { headers: { accept: "text/html" } })
          assert.include(shown.headers()["cache-control"] ?? "", "no-store")
          await page.reload()
          assert.notInclude(await page.locator("main").innerText(), first)
          assert.match(await page.locator("main").innerText(), /already been shown/)
          const works = await fetch(`${url}/v2/api/balance`, { headers: { "x-api-key": first } })
          assert.strictEqual(works.status, 200, "the reload did not replace the key")

          // Replacing: the confirmation names what happens, and "no" keeps the key.
          await page.goto("/v2/api-docs")
          await andWait(page, () => page.getByRole("link", { name: "Create a new key" }).click())
          assert.match(await page.locator("main").innerText(), /stops the old one at once/)
          await screenshot(page, "api-key-confirm-360")
          // The session's form token, for the hand-made post below (the API page itself has no post form).
          const csrf = await page.locator("#confirm-rotate input[name=_csrf]").getAttribute("value")
          await andWait(page, () => page.getByRole("link", { name: "No, keep the current key" }).click())
          assert.strictEqual((await fetch(`${url}/v2/api/balance`, { headers: { "x-api-key": first } })).status, 200)

          // A post without the confirmation (an old page, a hand-made form) only leads to the question.
          const unconfirmed = await page.request.post("/v2/api-key/rotate", {
            form: { _csrf: csrf ?? "" },
            headers: { accept: "text/html", origin: url },
            maxRedirects: 0
          })
          assert.strictEqual(unconfirmed.status(), 303)
          assert.strictEqual(unconfirmed.headers()["location"], "/v2/api-key/confirm")
          assert.strictEqual((await fetch(`${url}/v2/api/balance`, { headers: { "x-api-key": first } })).status, 200)

          await andWait(page, () => page.getByRole("link", { name: "Create a new key" }).click())
          await andWait(page, () => page.getByRole("button", { name: "Yes, replace the key" }).click())
          const second = await page.locator("#api-key").innerText()
          assert.notStrictEqual(second, first)
          assert.strictEqual((await fetch(`${url}/v2/api/balance`, { headers: { "x-api-key": first } })).status, 401)
          assert.strictEqual((await fetch(`${url}/v2/api/balance`, { headers: { "x-api-key": second } })).status, 200)
          await screenshot(page, "api-key-shown-once-360")
        })
      })
    )

    it.effect("the root address leads to the shop", () =>
      Effect.gen(function* () {
        const { url } = yield* WebWorld
        const b = yield* browser
        yield* Effect.promise(async () => {
          const root = await fetch(`${url}/`, { redirect: "manual" })
          assert.strictEqual(root.status, 302)
          assert.strictEqual(root.headers.get("location"), "/v2/")
          const { page } = await person(b, url, { locale: "ru-RU" })
          await page.goto("/")
          assert.match(page.url(), /\/v2\/$/)
          assert.strictEqual(
            await page.locator("h1").innerText(),
            "Telegram Stars, Premium и подарки с оплатой в сумах"
          )
        })
      })
    )
  }
)
