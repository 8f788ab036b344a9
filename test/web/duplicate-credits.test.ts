/// <reference lib="dom" />
/**
 * One payment must never be credited twice: in the browser, the operator's queue flags a receipt
 * repeating a recent credit, and the bank payments page holds a payment that a receipt-only credit
 * may already be; each goes through only once the operator ticks that it is other money.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { browser, person } from "./support/Browser.ts"
import {
  andWait,
  anotherPng,
  bankPayment,
  shopperName,
  shownBalance,
  signInOperator,
  signInShopper
} from "./support/Flows.ts"
import { WebWorld, webWorldLayer } from "./support/WebWorld.ts"

layer(webWorldLayer(), { timeout: "180 seconds", excludeTestServices: true })(
  "duplicate credits in the browser",
  (it) => {
    it.effect(
      "a receipt repeating a credit is flagged in the queue and approved only once the operator ticks the box",
      () =>
        Effect.gen(function* () {
          const { url } = yield* WebWorld
          const b = yield* browser
          yield* Effect.promise(async () => {
            const shopper = await person(b, url)
            await signInShopper(shopper.page, shopperName("twice"))
            const send = async (name: string) => {
              const receipt = shopper.page.locator("#receipt")
              await shopper.page.goto("/v2/dashboard")
              await receipt.getByLabel("Amount you paid, UZS").fill("35000")
              await receipt
                .getByLabel("Receipt (image or PDF, up to 5 MB)")
                .setInputFiles({ name, mimeType: "image/png", buffer: anotherPng() })
              await andWait(shopper.page, () => receipt.getByRole("button", { name: "Send the receipt" }).click())
              await shopper.page.waitForURL(/#topup-\d+$/)
              return /#topup-(\d+)$/.exec(shopper.page.url())![1]!
            }
            const operator = await person(b, url)
            await signInOperator(operator.page)
            const first = await send("first.png")
            await operator.page.goto("/v2/admin/topups")
            await operator.page.locator(`[data-topup-row="${first}"] summary`).click()
            await andWait(operator.page, () =>
              operator.page.locator(`[data-topup-row="${first}"]`).getByRole("button", { name: "Approve" }).click()
            )
            const second = await send("second.png")
            await operator.page.goto("/v2/admin/topups")
            const row = operator.page.locator(`#topup-queue [data-topup-row="${second}"]`)
            assert.strictEqual(await row.locator("[data-duplicate-of]").getAttribute("data-duplicate-of"), first)
            await row.locator("summary").click()
            await andWait(operator.page, () => row.getByRole("button", { name: "Approve" }).click())
            assert.match(
              await operator.page.getByRole("alert").first().innerText(),
              new RegExp(`Top-up #${first} of 35,000`)
            )
            await row.locator("summary").click()
            await row.getByLabel("I checked: this is a second payment").check()
            await andWait(operator.page, () => row.getByRole("button", { name: "Approve" }).click())
            assert.strictEqual(
              await operator.page.getByRole("status").first().innerText(),
              `Top-up #${second} approved and credited.`
            )
            await shopper.page.goto("/v2/dashboard")
            assert.strictEqual(await shownBalance(shopper.page), 70_000)
          })
        })
    )

    it.effect("a bank payment that a receipt-only credit may already be is held until the operator ticks the box", () =>
      Effect.gen(function* () {
        const { url } = yield* WebWorld
        const b = yield* browser
        yield* Effect.promise(async () => {
          const shopper = await person(b, url)
          const name = shopperName("late")
          await signInShopper(shopper.page, name)
          const operator = await person(b, url)
          await signInOperator(operator.page)
          // The receipt is credited on its word alone.
          const receipt = shopper.page.locator("#receipt")
          await receipt.getByLabel("Amount you paid, UZS").fill("45000")
          await receipt
            .getByLabel("Receipt (image or PDF, up to 5 MB)")
            .setInputFiles({ name: "r.png", mimeType: "image/png", buffer: anotherPng() })
          await andWait(shopper.page, () => receipt.getByRole("button", { name: "Send the receipt" }).click())
          await shopper.page.waitForURL(/#topup-\d+$/)
          const receiptId = /#topup-(\d+)$/.exec(shopper.page.url())![1]!
          await operator.page.goto("/v2/admin/topups")
          await operator.page.locator(`[data-topup-row="${receiptId}"] summary`).click()
          await andWait(operator.page, () =>
            operator.page.locator(`[data-topup-row="${receiptId}"]`).getByRole("button", { name: "Approve" }).click()
          )
          // A card top-up of the same amount, then a bank message of that amount: which money is it?
          await shopper.page.goto("/v2/dashboard")
          await shopper.page.locator("#topup").getByLabel("Amount, UZS").fill("45000")
          await andWait(shopper.page, () => shopper.page.getByRole("button", { name: "Get payment details" }).click())
          await shopper.page.waitForURL(/#topup-(\d+)$/)
          const cardId = /#topup-(\d+)$/.exec(shopper.page.url())![1]!
          const payment = await bankPayment(url, 45_000, `bank-${name}`)
          assert.strictEqual(payment.status, "ambiguous")

          await operator.page.goto("/v2/admin/payments")
          const row = operator.page.locator(`[data-payment-id="${payment.payment_id}"]`)
          assert.strictEqual(
            await row.locator("[data-credited-on-receipt]").getAttribute("data-credited-on-receipt"),
            receiptId
          )
          const byNumber = row.locator("form.assign-number")
          await row.locator("summary").click()
          await byNumber.getByLabel("Or a top-up number").fill(cardId)
          await andWait(operator.page, () => byNumber.getByRole("button", { name: "Assign", exact: true }).click())
          assert.match(
            await operator.page.getByRole("alert").first().innerText(),
            new RegExp(`^Payment #${payment.payment_id}: Receipt top-up #${receiptId} of 45,000`)
          )
          // Held: the choice stays open, the number kept, the confirmation offered.
          assert.strictEqual(await byNumber.getByLabel("Or a top-up number").inputValue(), cardId)
          await byNumber.getByLabel("I checked: this is another payment").check()
          await andWait(operator.page, () => byNumber.getByRole("button", { name: "Assign", exact: true }).click())
          assert.strictEqual(
            await operator.page.getByRole("status").first().innerText(),
            `Payment #${payment.payment_id} assigned to top-up #${cardId}.`
          )
          await shopper.page.goto("/v2/dashboard")
          assert.strictEqual(await shownBalance(shopper.page), 90_000)
        })
      })
    )
  }
)
