/// <reference lib="dom" />
/**
 * Operator safety in headless Chromium: a bank payment assigned to a top-up that does not exist or
 * is already credited is refused in plain words (never a server error), the history shows what was
 * credited rather than what was asked, receipts are bounded thumbnails, and deciding a top-up
 * takes two steps without any script.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { browser, person, screenshot } from "./support/Browser.ts"
import { andWait, bankPayment, digits, PNG, shopperName, signInOperator, signInShopper } from "./support/Flows.ts"
import { WebWorld, webWorldLayer } from "./support/WebWorld.ts"

layer(webWorldLayer(), { timeout: "180 seconds", excludeTestServices: true })("operator safety", (it) => {
  it.effect("refused assignments answer in words; the history shows the credited amount", () =>
    Effect.gen(function* () {
      const { url } = yield* WebWorld
      const b = yield* browser
      yield* Effect.promise(async () => {
        const shopper = await person(b, url)
        const name = shopperName("safety")
        await signInShopper(shopper.page, name)
        await shopper.page.locator("#topup input[name=amount_uzs]").fill("52000")
        await andWait(shopper.page, () => shopper.page.locator("#topup button[type=submit]").click())
        const topupId = /#topup-(\d+)$/.exec(shopper.page.url())![1]!
        const payable = digits(await shopper.page.locator(".pay-amount .money").textContent())

        // The shopper sent a little less than asked: the bank message matches nothing.
        const short = await bankPayment(url, 51_000, `bank-${name}-short`)
        assert.strictEqual(short.status, "unmatched")
        const operator = await person(b, url)
        await signInOperator(operator.page)
        await operator.page.goto("/v2/admin/payments")
        const row = operator.page.locator(`tr:has(form[action="/v2/admin/payments/${short.payment_id}/assign"])`)

        // A typo in the top-up number: a clear refusal, not "Internal Server Error".
        await row.locator("summary").click()
        await row.locator("form.assign-number input[name=topup_id]").fill("987654")
        await andWait(operator.page, () => row.getByRole("button", { name: "Assign", exact: true }).click())
        assert.strictEqual(
          await operator.page.getByRole("alert").innerText(),
          "There is no top-up with this number. Check the number and try again."
        )
        const raw = await operator.page.request.post(`/v2/admin/payments/${short.payment_id}/assign`, {
          form: { topup_id: "987654" },
          headers: { accept: "application/json", origin: url }
        })
        assert.strictEqual(raw.status(), 404)
        assert.strictEqual((await raw.json()).code, "topup_not_found")

        // The right top-up: credited with what arrived (the refusal left the choice open, the number kept).
        assert.strictEqual(await row.locator("form.assign-number input[name=topup_id]").inputValue(), "987654")
        await row.locator("form.assign-number input[name=topup_id]").fill(topupId)
        await andWait(operator.page, () => row.getByRole("button", { name: "Assign", exact: true }).click())
        assert.match(
          await operator.page.getByRole("status").first().innerText(),
          new RegExp(`assigned to top-up #${topupId}`)
        )

        // A second payment assigned to the now credited top-up: said plainly, nothing moves.
        const again = await bankPayment(url, 1_000, `bank-${name}-again`)
        await operator.page.goto("/v2/admin/payments")
        const second = operator.page.locator(`tr:has(form[action="/v2/admin/payments/${again.payment_id}/assign"])`)
        await second.locator("summary").click()
        await second.locator("form.assign-number input[name=topup_id]").fill(topupId)
        await andWait(operator.page, () => second.getByRole("button", { name: "Assign", exact: true }).click())
        assert.strictEqual(
          await operator.page.getByRole("alert").innerText(),
          "This top-up is already “Credited”: nothing was changed."
        )

        // The history says 51,000 arrived, and what was payable beside it.
        await operator.page.goto("/v2/admin/topups")
        const settled = operator.page.locator(`#history [data-topup-row="${topupId}"]`)
        const text = await settled.innerText()
        assert.include(text, "51,000\u00a0UZS")
        assert.include(text, `Payable: ${payable.toLocaleString("en-US")}\u00a0UZS`)
        assert.match(
          (await settled.locator("[data-user-link]").getAttribute("href")) ?? "",
          /^\/v2\/admin\/users\/\d+$/
        )
      })
    })
  )

  it.effect("a receipt is a bounded thumbnail opening the full file; deciding takes two steps", () =>
    Effect.gen(function* () {
      const { url } = yield* WebWorld
      const b = yield* browser
      yield* Effect.promise(async () => {
        const shopper = await person(b, url)
        await signInShopper(shopper.page, shopperName("thumb"))
        const receipt = shopper.page.locator("#receipt")
        await receipt.locator("input[name=amount_uzs]").fill("20000")
        await receipt.locator("input[type=file]").setInputFiles({ name: "r.png", mimeType: "image/png", buffer: PNG })
        await andWait(shopper.page, () => receipt.locator("button[type=submit]").click())
        const id = /#topup-(\d+)$/.exec(shopper.page.url())![1]!

        const operator = await person(b, url)
        await signInOperator(operator.page)
        await operator.page.goto("/v2/admin/topups")
        const row = operator.page.locator(`#topup-queue [data-topup-row="${id}"]`)
        const image = row.locator("img.receipt")
        await image.waitFor()
        assert.strictEqual(await image.evaluate((img) => getComputedStyle(img).maxHeight), "160px")
        assert.strictEqual(await row.locator("a.receipt-link").getAttribute("href"), `/v2/receipts/${id}`)
        assert.isFalse(await row.getByRole("button", { name: "Approve" }).isVisible())
        await row.locator("summary").click()
        assert.isTrue(await row.getByRole("button", { name: "Approve" }).isVisible())
        assert.include(await row.innerText(), "Approve credits 20,000\u00a0UZS to this user’s balance.")
        await screenshot(operator.page, "admin-topups-decide-1280")
      })
    })
  )
})
