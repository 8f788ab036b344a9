/// <reference lib="dom" />
/**
 * The bank payments page in headless Chromium: every payment is listed (matched ones naming their
 * top-up and its owner), filters by status, day and amount narrow it, and a payment that matched
 * nothing offers the open top-ups of a near amount with who they are, assigned in two steps without
 * script. In Russian and Uzbek at 360 px too.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { browser, PHONE, person, screenshot } from "./support/Browser.ts"
import {
  andWait,
  bankPayment,
  digits,
  shopperName,
  shownBalance,
  signInOperator,
  signInShopper
} from "./support/Flows.ts"
import { WebWorld, webWorldLayer } from "./support/WebWorld.ts"

layer(webWorldLayer(), { timeout: "180 seconds", excludeTestServices: true })("bank payments page", (it) => {
  it.effect("lists all payments, filters them, and assigns a near-amount payment to the top-up it offers", () =>
    Effect.gen(function* () {
      const { url } = yield* WebWorld
      const b = yield* browser
      yield* Effect.promise(async () => {
        const topup = async (prefix: string, amount: string) => {
          const shopper = await person(b, url)
          const name = shopperName(prefix)
          await signInShopper(shopper.page, name)
          await shopper.page.locator("#topup input[name=amount_uzs]").fill(amount)
          await andWait(shopper.page, () => shopper.page.locator("#topup button[type=submit]").click())
          const id = /#topup-(\d+)$/.exec(shopper.page.url())![1]!
          return { shopper, name, id, payable: digits(await shopper.page.locator(".pay-amount .money").textContent()) }
        }
        const ann = await topup("ann", "60000")
        const bob = await topup("bob", "30000")
        const matched = await bankPayment(url, ann.payable, `bank-${ann.name}`)
        assert.strictEqual(matched.status, "matched")
        const near = await bankPayment(url, bob.payable + 300, `bank-${bob.name}`)
        assert.strictEqual(near.status, "unmatched")
        const stray = await bankPayment(url, 777_777, `bank-stray-${bob.name}`)

        const operator = await person(b, url)
        await signInOperator(operator.page)
        await operator.page.goto("/v2/admin/payments")
        const rows = operator.page.locator("#payments-table [data-payment-id]")
        assert.deepStrictEqual(
          await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-payment-id"))),
          [stray, near, matched].map((p) => String(p.payment_id))
        )
        const matchedRow = operator.page.locator(`[data-payment-id="${matched.payment_id}"]`)
        assert.include(await matchedRow.innerText(), `#${ann.id}`)
        assert.include(await matchedRow.locator(".person").innerText(), `@${ann.name}`)

        // Filters: by status, by amount (a payment nothing is near), by day.
        await operator.page.getByLabel("Status").selectOption("matched")
        await andWait(operator.page, () => operator.page.getByRole("button", { name: "Show" }).click())
        assert.deepStrictEqual(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-payment-id"))), [
          String(matched.payment_id)
        ])
        await operator.page.goto("/v2/admin/payments?amount=777777")
        assert.strictEqual(await rows.count(), 1)
        await rows.first().locator("summary").click()
        assert.include(await rows.first().innerText(), "No open top-up of this or a near amount.")
        await operator.page.goto("/v2/admin/payments?from=2099-01-01")
        assert.strictEqual(
          await operator.page.locator("#payments-table").innerText(),
          "No payments match these filters."
        )
        const bad = await operator.page.request.get("/v2/admin/payments?from=2026-13-01&amount=lots", {
          headers: { accept: "application/json" }
        })
        assert.strictEqual(bad.status(), 422)
        assert.deepStrictEqual(
          (await bad.json()).detail.map((d: { loc: Array<string> }) => d.loc.at(-1)),
          ["from", "amount"]
        )

        // The near payment: the choice opens on the first click, offers Bob's top-up with who he is.
        await operator.page.goto("/v2/admin/payments?status=unresolved")
        const row = operator.page.locator(`[data-payment-id="${near.payment_id}"]`)
        await row.locator("summary").click()
        assert.include(await row.innerText(), "The top-up you choose is credited")
        const offered = row.locator(`[data-candidate="${bob.id}"]`)
        assert.include(await offered.innerText(), `@${bob.name}`)
        assert.include(await offered.innerText(), "differs by 300\u00a0UZS")
        await screenshot(operator.page, "admin-payments-assign-1280")
        await offered.locator("input[type=radio]").check()
        await andWait(operator.page, () => row.getByRole("button", { name: "Assign to the chosen top-up" }).click())
        assert.strictEqual(
          await operator.page.getByRole("status").first().innerText(),
          `Payment #${near.payment_id} assigned to top-up #${bob.id}.`
        )
        // Assigned by an operator, not matched on arrival: its own filter, and said on the row.
        await operator.page.goto("/v2/admin/payments?status=assigned")
        assert.deepStrictEqual(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-payment-id"))), [
          String(near.payment_id)
        ])
        assert.include(await rows.first().innerText(), "assigned by an operator")
        await operator.page.goto("/v2/admin/payments?status=matched")
        assert.strictEqual(
          await operator.page.locator(`[data-payment-id="${matched.payment_id}"] [data-assigned]`).count(),
          0
        )
        await bob.shopper.page.goto("/v2/dashboard")
        assert.strictEqual(await shownBalance(bob.shopper.page), bob.payable + 300)

        await operator.page.setViewportSize(PHONE)
        for (const [lang, title, open] of [
          ["ru", "Банковские платежи", "Привязать…"],
          ["uz", "Bank to‘lovlari", "Biriktirish…"]
        ] as const) {
          await operator.page.goto(`/v2/lang?to=${lang}&back=/v2/admin/payments`)
          assert.strictEqual(await operator.page.locator("h1").innerText(), title)
          const strayRow = operator.page.locator(`[data-payment-id="${stray.payment_id}"]`)
          assert.strictEqual(await strayRow.locator("summary").innerText(), open)
          await strayRow.locator("summary").click()
          assert.isAtMost(
            await operator.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
            0
          )
          await screenshot(operator.page, `admin-payments-${lang}-360`)
        }
      })
    })
  )
})
