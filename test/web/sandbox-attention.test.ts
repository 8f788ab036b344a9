/// <reference lib="dom" />
/**
 * The operator path walked with a test recipient, no switch flipped: stars for `sandbox_unknown` are
 * paid on the sandbox chain, Fragment never confirms them, so the order reaches "Needs attention" on
 * the shopper's page and in the panel, where the operator refunds it once.
 */
import { assert, layer } from "@effect/vitest"
import { Duration, Effect } from "effect"
import { browser, person, PHONE, screenshot } from "./support/Browser.ts"
import { andWait, bankPayment, digits, shopperName, signInOperator, signInShopper } from "./support/Flows.ts"
import { WebWorld, webWorldLayer } from "./support/WebWorld.ts"

const attentionSoon = {
  deliveryWait: Duration.seconds(1),
  reconcileDelay: Duration.millis(200),
  unknownRetryMax: Duration.millis(500),
  attentionAfter: Duration.zero,
  attentionAttempts: 2
}

layer(webWorldLayer(attentionSoon), { timeout: "180 seconds", excludeTestServices: true })(
  "sandbox_unknown in the browser",
  (it) => {
    it.effect(
      "the order waits for an operator, who refunds it once; the shopper sees the money back",
      () =>
        Effect.gen(function* () {
          const { url } = yield* WebWorld
          const b = yield* browser
          yield* Effect.promise(async () => {
            const shopper = await person(b, url, { viewport: PHONE })
            const name = shopperName("magic")
            await signInShopper(shopper.page, name)
            await shopper.page.locator("#topup input[name=amount_uzs]").fill("100000")
            await andWait(shopper.page, () => shopper.page.locator("#topup button[type=submit]").click())
            await shopper.page.waitForURL(/#topup-\d+$/)
            const payable = digits(await shopper.page.locator(".pay-amount .money").textContent())
            await bankPayment(url, payable, `bank-${name}`)
            await shopper.page.goto("/v2/dashboard")
            const stars = shopper.page.locator("#buy-stars")
            await stars.locator("input[name=username]").fill("sandbox_unknown")
            await andWait(shopper.page, () => stars.locator("button[type=submit]").click())
            await shopper.page.waitForURL(/\/v2\/orders$/)
            const orderId = await shopper.page.locator("[data-order-id]").first().getAttribute("data-order-id")
            await shopper.page
              .locator(`[data-order-id="${orderId}"] [data-status="needs_attention"]`)
              .waitFor({ timeout: 120_000 })
            await screenshot(shopper.page, "sandbox-unknown-shopper-phone")

            const operator = await person(b, url)
            await signInOperator(operator.page)
            await operator.page.goto("/v2/admin/orders?status=needs_attention")
            const row = operator.page.locator(`[data-order-id="${orderId}"]`)
            assert.include(await row.locator("dl.evidence").innerText(), "Ref#")
            await row.locator("details:has(form.refund) > summary").click()
            await row.getByLabel(/Refund note/).fill("sandbox test recipient")
            await andWait(operator.page, () => row.getByRole("button", { name: "Refund" }).click())
            assert.strictEqual(
              await operator.page.getByRole("status").first().innerText(),
              `Order #${orderId} refunded.`
            )
            await screenshot(operator.page, "sandbox-unknown-operator-refunded")

            await shopper.page.goto("/v2/dashboard")
            assert.strictEqual(Number(await shopper.page.locator("#balance").getAttribute("data-balance")), payable)
          })
        }),
      170_000
    )
  }
)
