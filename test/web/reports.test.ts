/// <reference lib="dom" />
/**
 * Operators' reports in headless Chromium: a shopper tops up by bank transfer and buys stars that the
 * worker delivers with the sandbox wallet; the report page shows the money received by bank, the
 * stars spent, the TON the wallet paid with fees and the cost per star, the margin at the rate typed
 * in, the CSV export of the same figures, and a refused date range as words beside the form kept
 * as typed. In Russian and Uzbek at 360 px too. Then the operator's status panel shows that fleet.
 */
import { assert, layer } from "@effect/vitest"
import { tashkentDay } from "@resale/core/reports/ReportPeriods.ts"
import { Effect } from "effect"
import { browser, PHONE, person, screenshot } from "./support/Browser.ts"
import { andWait, bankPayment, digits, shopperName, signInOperator, signInShopper } from "./support/Flows.ts"
import { runInProcess } from "../cli/support/InProcessCli.ts"
import { WebWorld, webWorldLayer } from "./support/WebWorld.ts"

layer(webWorldLayer(), { timeout: "180 seconds", excludeTestServices: true })("reports for operators", (it) => {
  it.effect("the money in, the stars sold and the TON paid for them, on the page and in the CSV", () =>
    Effect.gen(function* () {
      const { url, databaseUrl, dataDir } = yield* WebWorld
      const b = yield* browser
      yield* Effect.promise(async () => {
        const shopper = await person(b, url)
        await signInShopper(shopper.page, shopperName("report"))
        await shopper.page.locator("#topup input[name=amount_uzs]").fill("80000")
        await andWait(shopper.page, () => shopper.page.locator("#topup button[type=submit]").click())
        const payable = digits(await shopper.page.locator(".pay-amount .money").textContent())
        await bankPayment(url, payable, `bank-report-${payable}`)
        await shopper.page.goto("/v2/dashboard")
        const stars = shopper.page.locator("#buy-stars")
        await stars.locator("input[name=username]").fill("durov")
        await andWait(shopper.page, () => stars.locator("button[type=submit]").click())
        await shopper.page.locator('[data-order-id] [data-status="completed"]').first().waitFor({ timeout: 60_000 })
        const price = digits(await shopper.page.locator("[data-order-id] td").nth(3).innerText())

        const operator = await person(b, url)
        await signInOperator(operator.page)
        await andWait(operator.page, () => operator.page.getByRole("link", { name: "Reports" }).click())
        const figure = (name: string) => operator.page.locator(`[data-figure="${name}"]`).innerText()
        assert.strictEqual(digits(await figure("received-bank")), payable)
        assert.strictEqual(digits(await figure("received")), payable)
        assert.strictEqual(digits(await figure("spent-stars")), price)
        assert.strictEqual(digits(await figure("owed-end")), payable - price)
        assert.include(
          await figure("check"),
          `${(payable - price).toLocaleString("en-US")}\u00a0UZS: exactly the change in what users are owed`
        )
        // The sandbox wallet paid Fragment for the stars: TON with fees, and so a cost per star.
        assert.match(await figure("ton-stars"), /^\d+\.\d{4} TON · 50 stars$/)
        assert.isAbove(Number(/^([\d.]+)/.exec(await figure("ton"))![1]), 0)
        assert.match(await figure("per-star"), /^\d+\.\d{4} TON$/)
        assert.include(
          await operator.page.locator("#report-summary").innerText(),
          "Enter the TON rate to see the margin."
        )

        // By month, at a rate: the margin is the stars' sales less their TON at that rate.
        await operator.page.getByLabel("Group by").selectOption("month")
        await operator.page.getByLabel("TON rate, UZS per 1 TON").fill("40000")
        await andWait(operator.page, () => operator.page.getByRole("button", { name: "Show" }).click())
        const tonSpent = Number(/^([\d.]+)/.exec(await figure("ton"))![1])
        const marginText = await figure("margin")
        const margin = (/^[−-]/.test(marginText) ? -1 : 1) * digits(marginText)
        assert.approximately(price - margin, tonSpent * 40_000, 2)
        // One row per month the range touches (this week may start in the month before), then the total.
        const shownFrom = await operator.page.locator("input[name=from]").inputValue()
        const shownTo = await operator.page.locator("input[name=to]").inputValue()
        assert.strictEqual(
          await operator.page.locator("#report-table tbody tr").count(),
          (shownFrom.slice(0, 7) === shownTo.slice(0, 7) ? 1 : 2) + 1
        )
        await screenshot(operator.page, "admin-reports-1280")

        // The CSV export of the same request.
        const csv = await operator.page.request.get((await operator.page.locator("#report-csv").getAttribute("href"))!)
        assert.strictEqual(csv.status(), 200)
        assert.match(csv.headers()["content-type"] ?? "", /^text\/csv/)
        assert.match(csv.headers()["content-disposition"] ?? "", /^attachment; filename="report-month-/)
        const lines = (await csv.text()).trimEnd().split("\r\n")
        const header = lines[0]!.split(",")
        const total = Object.fromEntries(lines[2]!.split(",").map((v, i) => [header[i], v]))
        assert.strictEqual(total["period_start"], "total")
        assert.strictEqual(Number(total["received_bank_uzs"]), payable)
        assert.strictEqual(Number(total["spent_stars_uzs"]), price)
        assert.strictEqual(Number(total["stars_bought"]), 50)
        assert.strictEqual(Number(total["margin_uzs"]), margin)
        // `resale report` over the same database prints the very same file for the same request.
        const fromCli = await runInProcess(
          ["report", "--csv", "--period", "month", "--from", shownFrom, "--to", shownTo, "--ton-rate", "40000"],
          { DATABASE_URL: databaseUrl, DATA_DIR: dataDir }
        )
        assert.strictEqual(fromCli.code, 0, fromCli.stderr)
        assert.strictEqual(fromCli.stdout, await csv.text())

        // Dates the other way round: said beside the form, the form as typed, never a server error.
        await operator.page.goto("/v2/admin/reports?from=2026-03-02&to=2026-03-01")
        assert.include(await operator.page.getByRole("alert").innerText(), "the end not before the start")
        assert.strictEqual(await operator.page.locator("input[name=from]").inputValue(), "2026-03-02")
        const refused = await operator.page.request.get("/v2/admin/reports/data?period=year", {
          headers: { accept: "application/json" }
        })
        assert.strictEqual(refused.status(), 422)

        await operator.page.setViewportSize(PHONE)
        for (const [lang, title, received] of [
          ["ru", "Отчёты", "Поступило"],
          ["uz", "Hisobotlar", "Kelib tushdi"]
        ] as const) {
          await operator.page.goto(
            `/v2/lang?to=${lang}&back=${encodeURIComponent("/v2/admin/reports?period=month&ton_rate=40000")}`
          )
          assert.strictEqual(await operator.page.locator("h1").innerText(), title)
          assert.include(await operator.page.locator("#report-summary").innerText(), received)
          assert.isAtMost(
            await operator.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
            0
          )
          await screenshot(operator.page, `admin-reports-${lang}-360`)
        }

        // The status panel after that order: its Fragment session, the worker's beat, the hot wallet
        // (funded by the purchase), nothing waiting; in each language at 360 px, nothing wider.
        for (const [lang, title, alive] of [
          ["en", "Fleet status", "Alive"],
          ["ru", "Состояние системы", "Работает"],
          ["uz", "Tizim holati", "Ishlayapti"]
        ] as const) {
          await operator.page.goto(`/v2/lang?to=${lang}&back=${encodeURIComponent("/v2/admin/status")}`)
          assert.strictEqual(await operator.page.locator("h1").innerText(), title)
          assert.isAtLeast(await operator.page.locator("#status-sessions [data-health]").count(), 1)
          assert.include(await operator.page.locator("#status-workers").innerText(), alive)
          // The worker reads the wallet every 10 s until it holds coins (the purchase funded it); then
          // its type, address and balance (exact TON: whole when read between the funding and a payment).
          const balance = operator.page.locator("#status-wallet dd").nth(2)
          for (let i = 0; i < 30 && (await balance.count()) === 0; i++) {
            await operator.page.waitForTimeout(1000)
            await operator.page.reload()
          }
          const shown = await balance.innerText()
          assert.match(shown, /^\d+(\.\d+)?$/)
          assert.isAbove(Number(shown), 0)
          assert.include(await operator.page.locator("#status-queue").innerText(), "0")
          assert.isAtMost(
            await operator.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
            0
          )
          await screenshot(operator.page, `admin-status-${lang}-360`)
        }
      })
    })
  )

  it.effect("on a phone the page opens on this week by day, with presets for the month, last month and the year", () =>
    Effect.gen(function* () {
      const { url } = yield* WebWorld
      const b = yield* browser
      yield* Effect.promise(async () => {
        const { page } = await person(b, url, { viewport: PHONE })
        await signInOperator(page)
        await page.goto("/v2/admin/reports")
        const today = tashkentDay(new Date())
        const from = await page.locator("input[name=from]").inputValue()
        assert.strictEqual(await page.locator("input[name=to]").inputValue(), today)
        // Monday of this week, at most six days back.
        assert.strictEqual(new Date(`${from}T00:00:00Z`).getUTCDay(), 1)
        assert.isAtMost((Date.parse(today) - Date.parse(from)) / 86_400_000, 6)
        const days = await page.locator("#report-table tbody tr:not(.total-row)").count()
        assert.strictEqual(days, (Date.parse(today) - Date.parse(from)) / 86_400_000 + 1)
        assert.strictEqual(
          await page.locator("[data-preset][aria-current=true]").getAttribute("data-preset"),
          "thisWeek"
        )
        assert.isAtMost(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), 0)
        await screenshot(page, "admin-reports-default-360")

        // This year, by month: one row per month so far.
        await andWait(page, () => page.locator("[data-preset=thisYear]").click())
        assert.strictEqual(await page.locator("select[name=period]").inputValue(), "month")
        assert.strictEqual(await page.locator("input[name=from]").inputValue(), `${today.slice(0, 4)}-01-01`)
        assert.strictEqual(
          await page.locator("#report-table tbody tr:not(.total-row)").count(),
          Number(today.slice(5, 7))
        )
        // Last month, by week: whole weeks around it.
        await andWait(page, () => page.locator("[data-preset=lastMonth]").click())
        assert.strictEqual(await page.locator("select[name=period]").inputValue(), "week")
        assert.isAtMost(await page.locator("#report-table tbody tr:not(.total-row)").count(), 6)
        assert.strictEqual(
          await page.locator("[data-preset][aria-current=true]").getAttribute("data-preset"),
          "lastMonth"
        )
        await screenshot(page, "admin-reports-last-month-360")
      })
    })
  )
})
