/// <reference lib="dom" />
/**
 * An order paid on chain whose delivery Fragment cannot tell (blocked after the payment) reaches the operators' queue in the browser: the
 * panel lists it under "Needs attention" with its evidence; the operator refunds it once (the shopper
 * sees the money back) and the refund form is gone.
 */
import { assert, layer } from "@effect/vitest"
import { Duration, Effect } from "effect"
import { browser, person } from "./support/Browser.ts"
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
  "orders that need attention in the browser",
  (it) => {
    it.effect(
      "the operator sees the evidence and refunds the order once; the shopper gets the money back",
      () =>
        Effect.gen(function* () {
          const { market, url } = yield* WebWorld
          const b = yield* browser
          yield* Effect.promise(async () => {
            const shopper = await person(b, url)
            await signInShopper(shopper.page, shopperName("unknown"))
            await shopper.page.locator("#topup").getByLabel("Amount, UZS").fill("100000")
            await andWait(shopper.page, () => shopper.page.getByRole("button", { name: "Get payment details" }).click())
            await shopper.page.waitForURL(/#topup-\d+$/)
            await bankPayment(
              url,
              digits(await shopper.page.locator(".pay-amount .money").textContent()),
              `bank-unknown-${Date.now()}`
            )
            // Fragment keeps the paid invoice "processing"...
            market.set({ neverFinish: true })
            await shopper.page.goto("/v2/dashboard")
            const stars = shopper.page.locator("#buy-stars")
            await stars.getByLabel("Telegram username").fill("slow_friend")
            await andWait(shopper.page, () => stars.getByRole("button", { name: "Buy stars" }).click())
            await shopper.page.waitForURL(/\/v2\/orders$/)
            const orderId = await shopper.page.locator("[data-order-id]").first().getAttribute("data-order-id")
            // ...and once it was paid on chain, answers only 403 (blocked): delivery cannot be told any more.
            while (!market.invoices().some((i) => i.status === "processing"))
              await new Promise((r) => setTimeout(r, 50))
            market.set({ blocked: true })
            await shopper.page
              .locator(`[data-order-id="${orderId}"] [data-status="needs_attention"]`)
              .waitFor({ timeout: 90_000 })

            const operator = await person(b, url)
            await signInOperator(operator.page)
            await operator.page.goto("/v2/admin/orders")
            await operator.page.getByLabel("Status").selectOption("needs_attention")
            await andWait(operator.page, () => operator.page.getByRole("button", { name: "Show" }).click())
            await operator.page.waitForURL(/status=needs_attention/)
            const row = operator.page.locator(`[data-order-id="${orderId}"]`)
            assert.strictEqual(await row.locator("[data-status]").innerText(), "Needs attention")
            assert.include(await row.locator("dl.evidence").innerText(), "Ref#")

            await row.locator("details:has(form.refund) > summary").click()
            await row.getByLabel(/Refund note/).fill("Fragment support: not delivered")
            await andWait(operator.page, () => row.getByRole("button", { name: "Refund" }).click())
            await operator.page.waitForURL(/\/v2\/admin\/orders$/)
            assert.strictEqual(
              await operator.page.getByRole("status").first().innerText(),
              `Order #${orderId} refunded.`
            )
            const settled = operator.page.locator(`[data-order-id="${orderId}"]`)
            assert.strictEqual(await settled.locator("[data-status]").innerText(), "Failed, refunded")
            assert.strictEqual(await settled.getByRole("button", { name: "Refund" }).count(), 0)

            await shopper.page.reload()
            assert.strictEqual(
              await shopper.page.locator(`[data-order-id="${orderId}"] [data-status]`).innerText(),
              "Failed, refunded"
            )
            market.reset()
          })
        }),
      { timeout: 170_000 }
    )
  }
)
