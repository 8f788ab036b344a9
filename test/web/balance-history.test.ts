/// <reference lib="dom" />
/**
 * The shopper's balance history in headless Chromium: every ledger movement (top-up, order, tier)
 * with the balance after it, adding up to the balance shown; a credited top-up's card drops the
 * transfer details; a rejected receipt shows the operator's reason. Desktop and 360 px, three languages.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { browser, PHONE, person, screenshot } from "./support/Browser.ts"
import { andWait, bankPayment, digits, PNG, shopperName, shownBalance, signInOperator, signInShopper } from "./support/Flows.ts"
import { WebWorld, webWorldLayer } from "./support/WebWorld.ts"

layer(webWorldLayer(), { timeout: "180 seconds", excludeTestServices: true })("balance history", (it) => {
  it.effect("top-up, purchase and tier each leave a row with the balance after; the credited card says only that it is credited", () =>
    Effect.gen(function*() {
      const { url } = yield* WebWorld
      const b = yield* browser
      yield* Effect.promise(async () => {
        const { page } = await person(b, url)
        const name = shopperName("history")
        await signInShopper(page, name)
        await page.locator("#topup input[name=amount_uzs]").fill("80000")
        await andWait(page, () => page.locator("#topup button[type=submit]").click())
        await page.waitForURL(/#topup-\d+$/)
        const topupId = /#topup-(\d+)$/.exec(page.url())![1]!
        const card = page.locator(`#topup-${topupId}`)
        const payable = digits(await card.locator(".pay-amount .money").textContent())
        await bankPayment(url, payable, `bank-${name}`)

        // Credited while the page is open: the card no longer asks for a transfer.
        await card.locator("[data-topup-status]").getByText(/credited/).waitFor({ timeout: 20_000 })
        assert.strictEqual(await card.locator("h2").innerText(), `Top-up #${topupId}: Credited`)
        assert.strictEqual(await card.locator(".card-number, .pay-amount, button, form").count(), 0)
        assert.notInclude(await card.innerText(), "Waiting")

        const stars = page.locator("#buy-stars")
        await stars.locator("input[name=username]").fill("durov")
        await andWait(page, () => stars.locator("button[type=submit]").click())
        await page.waitForURL(/\/v2\/orders$/)
        await page.goto("/v2/api-docs")
        await page.locator("#tiers select").selectOption("1")
        await andWait(page, () => page.locator("#tiers button[type=submit]").click())
        await page.goto("/v2/dashboard")
        const balance = await shownBalance(page)
        assert.strictEqual(balance, payable - 11_500 - 50_000)

        await andWait(page, () => page.getByRole("link", { name: "History" }).click())
        await page.waitForURL(/\/v2\/history$/)
        const rows = page.locator("#history-table tbody tr")
        assert.strictEqual(await rows.count(), 3)
        // Newest first; the amounts add up to the balance, each row's balance-after follows the last.
        assert.deepStrictEqual(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-cause"))), ["tier", "order", "topup"])
        const cells = async (i: number) => rows.nth(i).locator("td").allInnerTexts()
        const [tier, order, topup] = [await cells(0), await cells(1), await cells(2)]
        assert.match(topup[1]!, new RegExp(`^Top-up #${topupId}\\b`))
        assert.strictEqual(digits(topup[2]!), payable)
        assert.strictEqual(topup[2]!.startsWith("+"), true)
        assert.strictEqual(digits(topup[3]!), payable)
        assert.match(order[1]!, /^Order #\d+/)
        assert.strictEqual(order[2], "−11,500\u00a0UZS")
        assert.strictEqual(digits(order[3]!), payable - 11_500)
        assert.match(tier[1]!, /^Lookup tier 1/)
        assert.strictEqual(digits(tier[3]!), balance)
        await screenshot(page, "history-en-1280")

        for (const [locale, title] of [["ru-RU", "История баланса"], ["uz-UZ", "Balans tarixi"]] as const) {
          await page.goto(`/v2/lang?to=${locale.slice(0, 2)}&back=/v2/history`)
          assert.strictEqual(await page.locator("h1").innerText(), title)
        }
        await page.setViewportSize(PHONE)
        await screenshot(page, "history-uz-360")
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
        assert.isAtMost(overflow, 0)
      })
    }))

  it.effect("a rejected receipt shows the operator's reason in the shopper's list", () =>
    Effect.gen(function*() {
      const { url } = yield* WebWorld
      const b = yield* browser
      yield* Effect.promise(async () => {
        const shopper = await person(b, url, { viewport: PHONE })
        await signInShopper(shopper.page, shopperName("rejected"))
        const receipt = shopper.page.locator("#receipt")
        await receipt.locator("input[name=amount_uzs]").fill("25000")
        await receipt.locator("input[type=file]").setInputFiles({ name: "r.png", mimeType: "image/png", buffer: PNG })
        await andWait(shopper.page, () => receipt.locator("button[type=submit]").click())
        const id = /#topup-(\d+)$/.exec(shopper.page.url())![1]!

        const operator = await person(b, url)
        await signInOperator(operator.page)
        await operator.page.goto("/v2/admin/topups")
        const row = operator.page.locator(`#topup-queue [data-topup-row="${id}"]`)
        await row.locator("summary").click()
        await row.getByLabel(/Note/).fill("the receipt is for another card")
        await andWait(operator.page, () => row.getByRole("button", { name: "Reject" }).click())

        await shopper.page.goto("/v2/dashboard")
        const listed = shopper.page.locator(`#topups-table [data-topup-row="${id}"]`)
        assert.include(await listed.innerText(), "Reason: the receipt is for another card")
        await screenshot(shopper.page, "rejected-reason-en-360")
      })
    }))
})
