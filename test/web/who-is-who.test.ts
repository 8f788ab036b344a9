/// <reference lib="dom" />
/**
 * Who is who, in headless Chromium: wherever a shopper appears on an operator list (top-ups, tickets,
 * a ticket's page) they are shown by name, @username and Telegram id, linked to their page; the
 * people search finds them by Telegram id as well as by user number. At 360 px in Russian and Uzbek too.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { browser, PHONE, person, screenshot } from "./support/Browser.ts"
import { andWait, PNG, shopperName, signInOperator, signInShopper } from "./support/Flows.ts"
import { WebWorld, webWorldLayer } from "./support/WebWorld.ts"

layer(webWorldLayer(), { timeout: "180 seconds", excludeTestServices: true })("who is who", (it) => {
  it.effect("lists show name, @username and Telegram id; search finds by Telegram id", () =>
    Effect.gen(function* () {
      const { url } = yield* WebWorld
      const b = yield* browser
      yield* Effect.promise(async () => {
        const shopper = await person(b, url)
        const name = shopperName("who")
        await signInShopper(shopper.page, name)
        const receipt = shopper.page.locator("#receipt")
        await receipt.locator("input[name=amount_uzs]").fill("11000")
        await receipt.locator("input[type=file]").setInputFiles({ name: "r.png", mimeType: "image/png", buffer: PNG })
        await andWait(shopper.page, () => receipt.locator("button[type=submit]").click())
        const topupId = /#topup-(\d+)$/.exec(shopper.page.url())![1]!
        await shopper.page.goto("/v2/tickets")
        await shopper.page.getByLabel("Subject").fill(`Question of ${name}`)
        await shopper.page.getByLabel("Message").fill("Hello")
        await andWait(shopper.page, () => shopper.page.getByRole("button", { name: "Send the request" }).click())
        const ticketId = /\/tickets\/(\d+)$/.exec(shopper.page.url())![1]!

        const operator = await person(b, url)
        await signInOperator(operator.page)
        await operator.page.goto("/v2/admin/topups")
        const who = operator.page.locator(`#topup-queue [data-topup-row="${topupId}"] .person`)
        const text = await who.innerText()
        assert.include(text, `@${name}`)
        const telegramId = /Telegram (\d+)/.exec(text)![1]!
        const userId = (await who.getAttribute("data-person"))!
        assert.strictEqual(await who.locator("[data-user-link]").getAttribute("href"), `/v2/admin/users/${userId}`)
        assert.strictEqual(await who.locator(`a[href="https://t.me/${name}"]`).count(), 1)

        await operator.page.goto("/v2/admin/tickets")
        const ticketRow = operator.page.locator("#admin-tickets tr", { hasText: `Question of ${name}` })
        assert.include(await ticketRow.locator(".person").innerText(), `Telegram ${telegramId}`)
        await operator.page.goto(`/v2/admin/tickets/${ticketId}`)
        assert.strictEqual(await operator.page.locator(`main .person[data-person="${userId}"]`).count(), 1)

        // Search by the Telegram id: that shopper first.
        await operator.page.goto("/v2/admin/users")
        await operator.page.getByLabel("@username, name, user number or Telegram id").fill(telegramId)
        await andWait(operator.page, () => operator.page.getByRole("button", { name: "Find" }).click())
        assert.strictEqual(
          await operator.page.locator("#users-table [data-user-row]").first().getAttribute("data-user-row"),
          userId
        )

        for (const [lang, label] of [
          ["ru", "Telegram ID"],
          ["uz", "Telegram ID"]
        ] as const) {
          await operator.page.setViewportSize(PHONE)
          await operator.page.goto(`/v2/lang?to=${lang}&back=/v2/admin/topups`)
          assert.include(
            await operator.page.locator(`#topup-queue [data-topup-row="${topupId}"] .person`).innerText(),
            `@${name}`
          )
          assert.isAtMost(
            await operator.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
            0
          )
          await screenshot(operator.page, `admin-topups-people-${lang}-360`)
          await operator.page.goto("/v2/admin/users")
          assert.include(await operator.page.locator("label[for=f-search]").innerText(), label)
        }
      })
    })
  )
})
