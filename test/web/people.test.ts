/// <reference lib="dom" />
/**
 * Operators and people in headless Chromium: a shopper found by @username, their page (name,
 * @username, Telegram id, balance, history, top-ups), reached from the top-up queue too; a balance
 * correction asks first, needs a reason, moves money once and shows the shopper that reason.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { browser, PHONE, person, screenshot } from "./support/Browser.ts"
import { andWait, PNG, shopperName, shownBalance, signInOperator, signInShopper } from "./support/Flows.ts"
import { WebWorld, webWorldLayer } from "./support/WebWorld.ts"

layer(webWorldLayer(), { timeout: "180 seconds", excludeTestServices: true })("people for operators", (it) => {
  it.effect(
    "finds a shopper, opens their page from the queue, corrects the balance with a reason the shopper then reads",
    () =>
      Effect.gen(function* () {
        const { url } = yield* WebWorld
        const b = yield* browser
        yield* Effect.promise(async () => {
          const shopper = await person(b, url)
          const name = shopperName("person")
          await signInShopper(shopper.page, name)
          const receipt = shopper.page.locator("#receipt")
          await receipt.locator("input[name=amount_uzs]").fill("15000")
          await receipt.locator("input[type=file]").setInputFiles({ name: "r.png", mimeType: "image/png", buffer: PNG })
          await andWait(shopper.page, () => receipt.locator("button[type=submit]").click())
          const topupId = /#topup-(\d+)$/.exec(shopper.page.url())![1]!

          const operator = await person(b, url)
          await signInOperator(operator.page)
          // From the queue, the user column opens the person.
          await operator.page.goto("/v2/admin/topups")
          await andWait(operator.page, () =>
            operator.page.locator(`#topup-queue [data-topup-row="${topupId}"] [data-user-link]`).click()
          )
          await operator.page.waitForURL(/\/v2\/admin\/users\/\d+$/)
          const userId = /users\/(\d+)$/.exec(operator.page.url())![1]!
          assert.include(await operator.page.locator("#person").innerText(), `@${name}`)
          assert.match(await operator.page.locator("#person").innerText(), /Telegram \d+/)

          // Search by @username.
          await andWait(operator.page, () => operator.page.getByRole("link", { name: "People" }).click())
          await operator.page.getByLabel("@username, name, user number or Telegram id").fill(`@${name}`)
          await andWait(operator.page, () => operator.page.getByRole("button", { name: "Find" }).click())
          const rows = operator.page.locator("#users-table [data-user-row]")
          assert.strictEqual(await rows.count(), 1)
          assert.strictEqual(await rows.first().getAttribute("data-user-row"), userId)
          await operator.page.getByLabel("@username, name, user number or Telegram id").fill(userId)
          await andWait(operator.page, () => operator.page.getByRole("button", { name: "Find" }).click())
          assert.strictEqual(await rows.first().getAttribute("data-user-row"), userId)
          await andWait(operator.page, () => rows.first().locator("[data-user-link]").click())

          // The correction form is behind a first click; a missing reason is refused beside the form, the amount kept.
          const adjust = operator.page.locator("#adjust")
          assert.isFalse(await adjust.locator("input[name=amount_uzs]").isVisible())
          await adjust.locator("summary").click()
          await adjust.locator("input[name=amount_uzs]").fill("7000")
          await operator.page.evaluate(() => document.querySelectorAll("form").forEach((f) => (f.noValidate = true)))
          await andWait(operator.page, () => adjust.getByRole("button", { name: "Correct the balance" }).click())
          assert.match(await operator.page.locator("#adjust").getByRole("alert").innerText(), /Reason/)
          await operator.page.locator("#adjust summary").click()
          assert.strictEqual(await operator.page.locator("#adjust input[name=amount_uzs]").inputValue(), "7000")
          await operator.page.locator("#adjust textarea[name=reason]").fill("bank fee refunded")
          // The same filled form sent twice moves the money once.
          const form = operator.page.locator("#adjust form")
          const fields = await form.evaluate(
            (f) => Object.fromEntries(new FormData(f as HTMLFormElement)) as Record<string, string>
          )
          const post = () =>
            operator.page.request.post(`/v2/admin/users/${userId}/adjust`, {
              form: fields,
              headers: { accept: "text/html", origin: url },
              maxRedirects: 0
            })
          assert.strictEqual((await post()).status(), 303)
          assert.strictEqual((await post()).status(), 303)
          await operator.page.goto(`/v2/admin/users/${userId}`)
          assert.strictEqual(await operator.page.locator("#user-balance").getAttribute("data-balance"), "7000")
          await screenshot(operator.page, "admin-user-1280")

          await shopper.page.goto("/v2/dashboard")
          assert.strictEqual(await shownBalance(shopper.page), 7000)
          await shopper.page.goto("/v2/history")
          const row = shopper.page.locator('#history-table [data-cause="adjust"]')
          assert.strictEqual(await row.count(), 1)
          assert.include(await row.innerText(), "Correction by support")
          assert.include(await row.innerText(), "Reason: bank fee refunded")

          await operator.page.setViewportSize(PHONE)
          await operator.page.goto("/v2/admin/users")
          await screenshot(operator.page, "admin-people-360")
          assert.isAtMost(
            await operator.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
            0
          )
        })
      })
  )
})
