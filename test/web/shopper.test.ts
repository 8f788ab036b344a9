/// <reference lib="dom" />
/**
 * A shopper in headless Chromium against the whole product (server, worker, sandbox chain and
 * Fragment simulator, real PostgreSQL): sign in, top up by card, the bank relay reports the payment
 * and the balance changes on the open page, then stars are bought and the order completes live.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { browser, person } from "./support/Browser.ts"
import {
  andWait,
  bankPayment,
  digits,
  markDocument,
  shopperName,
  shownBalance,
  signInShopper,
  stillSameDocument
} from "./support/Flows.ts"
import { WebWorld, webWorldLayer } from "./support/WebWorld.ts"

layer(webWorldLayer(), { timeout: "180 seconds", excludeTestServices: true })("shopper in the browser", (it) => {
  it.effect(
    "tops up by card, sees the bank payment credited without reloading, buys stars and watches the order complete",
    () =>
      Effect.gen(function* () {
        const { market, url } = yield* WebWorld
        const b = yield* browser
        yield* Effect.promise(async () => {
          const { page } = await person(b, url)
          const name = shopperName("buyer")
          await signInShopper(page, name)
          assert.strictEqual(await shownBalance(page), 0)

          // Top-up: the amount asked, then the exact amount to transfer, the card and the time left.
          await page.locator("#topup").getByLabel("Amount, UZS").fill("30000")
          await andWait(page, () => page.getByRole("button", { name: "Get payment details" }).click())
          await page.waitForURL(/\/v2\/dashboard#topup-\d+$/)
          const panel = page.locator("[data-topup-id]")
          await panel.waitFor()
          const payable = digits(await panel.locator(".pay-amount .money").textContent())
          assert.isAtLeast(payable, 30_000)
          assert.isBelow(payable, 31_000)
          assert.match(
            await page.getByRole("status").first().innerText(),
            /Top-up #\d+ created\. Transfer exactly 30,\d{3}\sUZS\./
          )
          assert.strictEqual(await panel.locator(".card-number").innerText(), "8600 0000 0000 0000")
          await page.waitForFunction(() =>
            /^1[45]:\d\d$/.test(document.querySelector("[data-expires]")?.textContent ?? "")
          )

          // The bank relay reports the transfer; the open page shows the new balance by itself.
          await markDocument(page)
          const payment = await bankPayment(url, payable, `bank-${name}`)
          assert.strictEqual(payment.status, "matched")
          await page.waitForFunction(
            (n) => document.getElementById("balance")?.getAttribute("data-balance") === String(n),
            payable
          )
          assert.strictEqual(digits(await page.locator("#balance").innerText()), payable)
          await page.getByText(/Top-up #\d+ credited: 30,\d{3}\sUZS\./).waitFor()
          assert.isTrue(await stillSameDocument(page), "the balance changed without a reload")

          // Stars: the price is shown before paying.
          const stars = page.locator("#buy-stars")
          await stars.getByLabel("Telegram username").fill("durov")
          await stars.getByLabel("Number of stars").fill("100")
          assert.strictEqual(await stars.locator("[data-total]").innerText(), "23,000\u00a0UZS")
          assert.strictEqual(
            await stars.locator("[data-after]").innerText(),
            `Balance after: ${(payable - 23_000).toLocaleString("en-US")}\u00a0UZS`
          )
          // Fragment takes two seconds to find the recipient, so the order is surely still on its way when the page opens.
          market.inject({ method: "searchStarsRecipient", delayMs: 2000 })
          await andWait(page, () => stars.getByRole("button", { name: "Buy stars" }).click())
          await page.waitForURL(/\/v2\/orders$/)
          assert.match(
            await page.getByRole("status").first().innerText(),
            /Order #\d+ placed: 23,000\sUZS was taken from your balance\./
          )

          // The order is on its way when the page opens, and completes while we watch.
          const row = page.locator("[data-order-id]").first()
          assert.strictEqual(await row.locator("td").nth(1).innerText(), "100 stars")
          assert.strictEqual(await row.locator("td").nth(2).innerText(), "@durov")
          const first = await row.locator("[data-status]").getAttribute("data-status")
          assert.include(["queued", "processing"], first)
          await markDocument(page)
          await row.locator('[data-status="completed"]').waitFor({ timeout: 60_000 })
          assert.strictEqual(await row.locator("[data-status]").innerText(), "Delivered")
          assert.isTrue(await stillSameDocument(page), "the order completed without a reload")

          await page.goto("/v2/dashboard")
          assert.strictEqual(await shownBalance(page), payable - 23_000)
        })
      })
  )

  it.effect(
    "shows errors in words: too little balance, a bad username, an amount out of range, a form without its token",
    () =>
      Effect.gen(function* () {
        const { url } = yield* WebWorld
        const b = yield* browser
        yield* Effect.promise(async () => {
          const { page } = await person(b, url)
          await signInShopper(page, shopperName("poor"))
          const alert = page.getByRole("alert")

          const stars = page.locator("#buy-stars")
          await stars.getByLabel("Telegram username").fill("durov")
          await andWait(page, () => stars.getByRole("button", { name: "Buy stars" }).click())
          await page.waitForURL(/\/v2\/dashboard#buy-stars$/)
          assert.strictEqual(
            await alert.innerText(),
            "Not enough balance: 11,500\u00a0UZS needed, you have 0\u00a0UZS."
          )

          // The browser's own checks are switched off to reach the server's.
          await page.evaluate(() => document.querySelectorAll("form").forEach((f) => (f.noValidate = true)))
          await stars.getByLabel("Telegram username").fill("x!")
          await andWait(page, () => stars.getByRole("button", { name: "Buy stars" }).click())
          await page.waitForURL(/\/v2\/dashboard#buy-stars$/)
          assert.strictEqual(await alert.innerText(), "A username is 4 to 32 Latin letters, digits or underscores.")

          await page.evaluate(() => document.querySelectorAll("form").forEach((f) => (f.noValidate = true)))
          await page.locator("#topup").getByLabel("Amount, UZS").fill("500")
          await andWait(page, () => page.getByRole("button", { name: "Get payment details" }).click())
          await page.waitForURL(/\/v2\/dashboard#topup$/)
          assert.strictEqual(
            await alert.innerText(),
            "The amount must be between 1,000\u00a0UZS and 100,000,000\u00a0UZS."
          )

          await page.evaluate(() => document.querySelectorAll("form").forEach((f) => (f.noValidate = true)))
          await page.evaluate(() => ((document.querySelector("#f-amount_uzs") as HTMLInputElement).type = "text"))
          await page.locator("#topup").getByLabel("Amount, UZS").fill("abc")
          await andWait(page, () => page.getByRole("button", { name: "Get payment details" }).click())
          await page.waitForURL(/\/v2\/dashboard#topup$/)
          assert.strictEqual(await alert.innerText(), "Amount: enter a whole number.")

          // A form planted by another page has no valid token: refused, nothing created.
          await andWait(page, () =>
            page.evaluate(() => {
              const form = document.createElement("form")
              form.method = "post"
              form.action = "/v2/balance/top-up"
              form.innerHTML = '<input name="amount_uzs" value="5000"><input name="_csrf" value="forged-token">'
              document.body.appendChild(form)
              form.submit()
            })
          )
          await page.waitForURL(/\/v2\/dashboard/)
          assert.strictEqual(await alert.innerText(), "This form has expired. Please send it again.")
          assert.strictEqual(await page.locator("[data-topup-id]").count(), 0)
          const body = await page.locator("body").innerText()
          assert.notInclude(body, '{"detail"')
        })
      })
  )

  it.effect("one form sent twice places one order (the idempotency key travels with the form)", () =>
    Effect.gen(function* () {
      const { url } = yield* WebWorld
      const b = yield* browser
      yield* Effect.promise(async () => {
        const { page } = await person(b, url)
        const name = shopperName("twice")
        await signInShopper(page, name)
        await page.locator("#topup").getByLabel("Amount, UZS").fill("50000")
        await andWait(page, () => page.getByRole("button", { name: "Get payment details" }).click())
        await page.waitForURL(/#topup-\d+$/)
        const payable = digits(await page.locator(".pay-amount .money").textContent())
        await bankPayment(url, payable, `bank-${name}`)
        await page.goto("/v2/dashboard")
        // The same filled form posted twice, as a double click or a resend after a lost answer would.
        const form = page.locator("#buy-stars form")
        await form.getByLabel("Telegram username").fill("durov")
        const fields = await form.evaluate(
          (f) => Object.fromEntries(new FormData(f as HTMLFormElement)) as Record<string, string>
        )
        const post = () =>
          page.request.post("/v2/orders/stars", {
            form: fields,
            headers: { accept: "text/html", origin: url },
            maxRedirects: 0
          })
        const [one, two] = [await post(), await post()]
        assert.strictEqual(one.status(), 303)
        assert.strictEqual(two.status(), 303)
        const orders = await (
          await page.request.get("/v2/orders/list", { headers: { accept: "application/json" } })
        ).json()
        assert.strictEqual(orders.total, 1)
        const balance = await (
          await page.request.get("/v2/balance", { headers: { accept: "application/json" } })
        ).json()
        assert.strictEqual(balance.balance_uzs, payable - 50 * 230)
      })
    })
  )
})
