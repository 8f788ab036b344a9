/// <reference lib="dom" />
/**
 * The shopper's balance history in headless Chromium: every ledger movement (top-up, order, tier)
 * with the balance after it, adding up to the balance shown; a credited top-up's card drops the
 * transfer details and the message the form left says it is credited; a rejected receipt shows
 * the operator's reason. Desktop and 360 px, three languages.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { Page } from "playwright-core"
import { browser, DESKTOP, PHONE, person, screenshot } from "./support/Browser.ts"
import {
  andWait,
  bankPayment,
  digits,
  PNG,
  shopperName,
  shownBalance,
  signInOperator,
  signInShopper
} from "./support/Flows.ts"
import { WebWorld, webWorldLayer } from "./support/WebWorld.ts"

/**
 * The lookup tier (50,000 so'm) is paid only from its confirmation page, which shows the price and
 * the balance after; short of money it offers a top-up instead of the button. Russian has 30,000
 * (short), Uzbek 60,000 on a phone (pays).
 */
const tierAsksFirst = async (page: Page, locale: "ru-RU" | "uz-UZ", balance: number) => {
  await page.goto("/v2/api-docs")
  await andWait(page, () => page.locator("#tiers button[type=submit]").click())
  await page.waitForURL(/\/v2\/api-docs\/getinfo-upgrade\/confirm\?tier=1$/)
  const question = page.locator("#confirm-tier")
  assert.strictEqual(digits(await question.locator(".pay-amount").innerText()), 50_000)
  assert.strictEqual(await shownBalanceNow(page), balance, "nothing taken by asking")
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
  assert.isAtMost(overflow, 0)
  await screenshot(page, `tier-confirm-${locale.slice(0, 2)}`)
  if (locale === "ru-RU") {
    assert.strictEqual(await page.locator("h1").innerText(), "Повысить тариф до 1?")
    assert.match(
      await question.locator(".reason").innerText(),
      /^Недостаточно средств: пополните ещё на 20\s000\s?сум\.$/
    )
    assert.strictEqual(await question.locator("button").count(), 0)
    assert.strictEqual(await question.getByRole("link", { name: "Пополнить баланс" }).count(), 1)
    return
  }
  assert.strictEqual(await page.locator("h1").innerText(), "Tarifni 1-tarifga oshirasizmi?")
  assert.match(await question.innerText(), /Hozir balansda: [\d\s]+so‘m, to‘lovdan keyin qoladi: [\d\s]+so‘m\./)
  await andWait(page, () => question.getByRole("button", { name: /^Ha, 50\s000\s?so‘m to‘lash$/ }).click())
  await page.waitForURL(/\/v2\/api-docs#tiers$/)
  assert.strictEqual(await page.getByRole("status").first().innerText(), "Qidiruv tarifingiz endi 1.")
  assert.strictEqual(await shownBalanceNow(page), balance - 50_000)
}

/** The balance as the server has it (the API page has no balance on it). */
const shownBalanceNow = async (page: Page): Promise<number> =>
  (
    (await (await page.request.get("/v2/balance", { headers: { accept: "application/json" } })).json()) as {
      balance_uzs: number
    }
  ).balance_uzs

layer(webWorldLayer(), { timeout: "180 seconds", excludeTestServices: true })("balance history", (it) => {
  it.effect(
    "top-up, purchase and tier each leave a row with the balance after; the credited card says only that it is credited",
    () =>
      Effect.gen(function* () {
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
          // The message the form left at the top says it now, not "created, transfer exactly".
          const flash = page.locator("#flash")
          await flash.getByText(`Top-up #${topupId} credited: `).waitFor({ timeout: 20_000 })
          assert.strictEqual(digits(await flash.innerText()), Number(`${topupId}${payable}`))
          assert.strictEqual(await flash.getAttribute("class"), "flash flash-ok")
          assert.strictEqual(await card.locator("h2").innerText(), `Top-up #${topupId}: Credited`)
          assert.strictEqual(await card.locator(".card-number, .pay-amount, button, form").count(), 0)
          assert.notInclude(await card.innerText(), "Waiting")
          // Said once, announced once: the card's own live line does not repeat the message.
          assert.strictEqual(await card.locator("[data-topup-status]").count(), 0)
          assert.strictEqual(await page.getByText(`Top-up #${topupId} credited: `).count(), 1)

          const stars = page.locator("#buy-stars")
          await stars.locator("input[name=username]").fill("durov")
          await andWait(page, () => stars.locator("button[type=submit]").click())
          await page.waitForURL(/\/v2\/orders$/)
          await page.goto("/v2/api-docs")
          await page.locator("#tiers select").selectOption("1")
          await andWait(page, () => page.locator("#tiers button[type=submit]").click())
          await andWait(page, () => page.locator("#confirm-tier button[type=submit]").click())
          await page.goto("/v2/dashboard")
          const balance = await shownBalance(page)
          assert.strictEqual(balance, payable - 11_500 - 50_000)

          await andWait(page, () => page.getByRole("link", { name: "History" }).click())
          await page.waitForURL(/\/v2\/history$/)
          const rows = page.locator("#history-table tbody tr")
          assert.strictEqual(await rows.count(), 3)
          // Newest first; the amounts add up to the balance, each row's balance-after follows the last.
          assert.deepStrictEqual(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-cause"))), [
            "tier",
            "order",
            "topup"
          ])
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

          for (const [locale, title] of [
            ["ru-RU", "История баланса"],
            ["uz-UZ", "Balans tarixi"]
          ] as const) {
            await page.goto(`/v2/lang?to=${locale.slice(0, 2)}&back=/v2/history`)
            assert.strictEqual(await page.locator("h1").innerText(), title)
          }
          await page.setViewportSize(PHONE)
          await screenshot(page, "history-uz-360")
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
          assert.isAtMost(overflow, 0)
        })
      })
  )

  it.effect("the top-up message turns into its credit in Russian on a desktop and Uzbek on a phone", () =>
    Effect.gen(function* () {
      const { url } = yield* WebWorld
      const b = yield* browser
      yield* Effect.promise(() =>
        Promise.all(
          (
            [
              [
                "ru-RU",
                DESKTOP,
                30_000,
                /^Пополнение №(\d+) создано\. Переведите ровно /,
                "Пополнение №{id} зачислено: "
              ],
              ["uz-UZ", PHONE, 60_000, /^To‘ldirish №(\d+) yaratildi\. Aynan /, "To‘ldirish №{id} hisobga o‘tkazildi: "]
            ] as const
          ).map(async ([locale, viewport, amount, created, credited]) => {
            const { page } = await person(b, url, { locale, viewport })
            const name = shopperName(`flash_${locale.slice(0, 2)}`)
            await signInShopper(page, name)
            await page.locator("#topup input[name=amount_uzs]").fill(String(amount))
            await andWait(page, () => page.locator("#topup button[type=submit]").click())
            const flash = page.locator("#flash")
            const id = created.exec(await flash.innerText())![1]!
            const payable = digits(await page.locator(`#topup-${id} .pay-amount .money`).textContent())
            await bankPayment(url, payable, `bank-${name}`)
            const expected = credited.replace("{id}", id)
            await flash.getByText(expected, { exact: false }).waitFor({ timeout: 20_000 })
            const said = await flash.innerText()
            assert.strictEqual(digits(said.slice(expected.length)), payable)
            assert.strictEqual(await flash.locator("p").count(), 1)
            await screenshot(page, `topup-credited-flash-${locale.slice(0, 2)}-${viewport.width}`)
            await tierAsksFirst(page, locale, payable)
          })
        )
      )
    })
  )

  it.effect("a rejected receipt shows the operator's reason in the shopper's list", () =>
    Effect.gen(function* () {
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
    })
  )
})
