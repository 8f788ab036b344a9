/// <reference lib="dom" />
/**
 * An operator and shoppers in separate browser profiles, against the whole product: receipts
 * approved from the queue, support answered live, an unmatched bank payment assigned, a failed
 * order retried, prices changed.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { browser, person } from "./support/Browser.ts"
import {
  andWait,
  bankPayment,
  digits,
  markDocument,
  PNG,
  shopperName,
  shownBalance,
  signInOperator,
  signInShopper,
  stillSameDocument
} from "./support/Flows.ts"
import { WebWorld, webWorldLayer } from "./support/WebWorld.ts"

layer(webWorldLayer(), { timeout: "180 seconds", excludeTestServices: true })("operator in the browser", (it) => {
  it.effect("approves a receipt top-up from the queue; the shopper's open page shows the money", () =>
    Effect.gen(function* () {
      const { url } = yield* WebWorld
      const b = yield* browser
      yield* Effect.promise(async () => {
        const shopper = await person(b, url)
        await signInShopper(shopper.page, shopperName("receipt"))
        const receipt = shopper.page.locator("#receipt")
        await receipt.getByLabel("Amount you paid, UZS").fill("40000")
        await receipt
          .getByLabel("Receipt (image or PDF, up to 5 MB)")
          .setInputFiles({ name: "receipt.png", mimeType: "image/png", buffer: PNG })
        await andWait(shopper.page, () => receipt.getByRole("button", { name: "Send the receipt" }).click())
        await shopper.page.waitForURL(/#topup-\d+$/)
        const flash = await shopper.page.getByRole("status").first().innerText()
        const topupId = /top-up #(\d+)/.exec(flash)?.[1]
        assert.isDefined(topupId, flash)
        const panel = shopper.page.locator(`#topup-${topupId}`)
        assert.strictEqual(await panel.getAttribute("data-status"), "review")
        await markDocument(shopper.page)

        const operator = await person(b, url)
        await signInOperator(operator.page)
        await andWait(operator.page, () => operator.page.getByRole("link", { name: /Receipts to review/ }).click())
        await operator.page.waitForURL(/\/v2\/admin\/topups$/)
        const row = operator.page.locator(`#topup-queue [data-topup-row="${topupId}"]`)
        // The receipt itself is shown: the image loaded from /v2/receipts/<id> for the operator.
        // Waited for: the receipt loads lazily, and the page's load event need not wait for it.
        const image = row.locator("img.receipt")
        await image.waitFor()
        const drawn = await operator.page
          .waitForFunction(
            (img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth === 1,
            await image.elementHandle(),
            { timeout: 10_000 }
          )
          .then(
            () => true,
            () => false
          )
        assert.isTrue(drawn, "the receipt drawn within 10 s")
        // Deciding is two steps: the first click opens the decision and says what each button does.
        assert.isFalse(await row.getByRole("button", { name: "Approve" }).isVisible())
        await row.locator("summary").click()
        assert.include(await row.locator(".decide-step .hint").first().innerText(), "Approve credits 40,000\u00a0UZS")
        await row.getByLabel(/Note/).fill("receipt checked")
        await andWait(operator.page, () => row.getByRole("button", { name: "Approve" }).click())
        await operator.page.waitForURL(/\/v2\/admin\/topups$/)
        assert.strictEqual(
          await operator.page.getByRole("status").first().innerText(),
          `Top-up #${topupId} approved and credited.`
        )
        assert.strictEqual(await operator.page.locator(`#topup-queue [data-topup-row="${topupId}"]`).count(), 0)
        const settled = operator.page.locator(`#history [data-topup-row="${topupId}"]`)
        assert.include(await settled.innerText(), "Credited")
        assert.include(await settled.innerText(), "receipt checked")

        await shopper.page.waitForFunction(
          () => document.getElementById("balance")?.getAttribute("data-balance") === "40000"
        )
        // Said once where the shopper's own message was (the card's heading names the state).
        const credited = shopper.page.getByText("Top-up #" + topupId + " credited: 40,000\u00a0UZS.")
        await credited.waitFor()
        assert.strictEqual(await credited.count(), 1)
        assert.strictEqual(await panel.locator("h2").innerText(), `Top-up #${topupId}: Credited`)
        assert.isTrue(await stillSameDocument(shopper.page))

        // A second receipt is rejected with a reason: nothing is credited, the shopper sees the outcome.
        await shopper.page.goto("/v2/dashboard")
        await receipt.getByLabel("Amount you paid, UZS").fill("90000")
        await receipt
          .getByLabel("Receipt (image or PDF, up to 5 MB)")
          .setInputFiles({ name: "again.png", mimeType: "image/png", buffer: PNG })
        await andWait(shopper.page, () => receipt.getByRole("button", { name: "Send the receipt" }).click())
        await shopper.page.waitForURL(/#topup-\d+$/)
        const second = /#topup-(\d+)$/.exec(shopper.page.url())![1]!
        await operator.page.goto("/v2/admin/topups")
        const pending = operator.page.locator(`#topup-queue [data-topup-row="${second}"]`)
        await pending.locator("summary").click()
        await pending.getByLabel(/Note/).fill("amount does not match the receipt")
        await andWait(operator.page, () => pending.getByRole("button", { name: "Reject" }).click())
        await operator.page.waitForURL(/\/v2\/admin\/topups$/)
        assert.strictEqual(await operator.page.getByRole("status").first().innerText(), `Top-up #${second} rejected.`)
        await shopper.page.locator(`#topup-${second}[data-status="rejected"]`).waitFor({ timeout: 20_000 })
        const reason = shopper.page.getByText("Rejected: amount does not match the receipt")
        await reason.waitFor()
        assert.strictEqual(await reason.count(), 1)
        assert.strictEqual(await shownBalance(shopper.page), 40_000)
      })
    })
  )

  it.effect("a ticket answered by an operator appears in the shopper's open conversation", () =>
    Effect.gen(function* () {
      const { url } = yield* WebWorld
      const b = yield* browser
      yield* Effect.promise(async () => {
        const shopper = await person(b, url)
        await signInShopper(shopper.page, shopperName("asker"))
        await andWait(shopper.page, () => shopper.page.getByRole("link", { name: "Support" }).click())
        await shopper.page.getByLabel("Subject").fill("Where are my stars?")
        await shopper.page.getByLabel("Message").fill("I paid an hour ago.\nOrder for @durov.")
        await andWait(shopper.page, () => shopper.page.getByRole("button", { name: "Send the request" }).click())
        await shopper.page.waitForURL(/\/v2\/tickets\/\d+$/)
        const ticketId = /\/tickets\/(\d+)$/.exec(shopper.page.url())![1]
        assert.strictEqual(await shopper.page.locator("#conversation .msg").count(), 1)
        assert.strictEqual(
          await shopper.page.locator("#conversation .msg-body").innerText(),
          "I paid an hour ago.\nOrder for @durov."
        )
        await markDocument(shopper.page)

        const operator = await person(b, url)
        await signInOperator(operator.page)
        await andWait(operator.page, () => operator.page.getByRole("link", { name: "Tickets", exact: true }).click())
        const entry = operator.page.locator("#admin-tickets tr", { hasText: "Where are my stars?" })
        assert.include(await entry.innerText(), "Waiting for an answer")
        await andWait(operator.page, () => entry.getByRole("link", { name: "Where are my stars?" }).click())
        await operator.page.waitForURL(new RegExp(`/v2/admin/tickets/${ticketId}$`))
        await operator.page.getByLabel("Answer").fill("Delivered just now, please check. <b>Thanks</b>")
        await andWait(operator.page, () => operator.page.getByRole("button", { name: "Send answer" }).click())
        await operator.page.waitForURL(new RegExp(`/v2/admin/tickets/${ticketId}#conversation$`))
        assert.strictEqual(await operator.page.locator("#conversation .msg").count(), 2)

        // The shopper's page, never reloaded, shows the answer (as text, not markup).
        const answer = shopper.page.locator("#conversation .msg-operator")
        await answer.waitFor({ timeout: 20_000 })
        assert.strictEqual(
          await answer.locator(".msg-body").innerText(),
          "Delivered just now, please check. <b>Thanks</b>"
        )
        assert.strictEqual(await answer.locator(".msg-meta strong").innerText(), "Support")
        assert.isTrue(await stillSameDocument(shopper.page))

        await andWait(operator.page, () => operator.page.getByRole("button", { name: "Close" }).click())
        await operator.page.waitForURL(new RegExp(`/v2/admin/tickets/${ticketId}$`))
        assert.strictEqual(await operator.page.getByRole("status").first().innerText(), `Ticket #${ticketId} closed.`)
        await shopper.page.locator('[data-status-kind="ticket"][data-status="closed"]').waitFor({ timeout: 20_000 })
        await andWait(operator.page, () => operator.page.getByRole("button", { name: "Reopen" }).click())
        await operator.page.waitForURL(new RegExp(`/v2/admin/tickets/${ticketId}$`))
        assert.strictEqual(await operator.page.getByRole("status").first().innerText(), `Ticket #${ticketId} reopened.`)
      })
    })
  )

  it.effect("assigns an unmatched bank payment to the right top-up", () =>
    Effect.gen(function* () {
      const { url } = yield* WebWorld
      const b = yield* browser
      yield* Effect.promise(async () => {
        const shopper = await person(b, url)
        const name = shopperName("typo")
        await signInShopper(shopper.page, name)
        await shopper.page.locator("#topup").getByLabel("Amount, UZS").fill("70000")
        await andWait(shopper.page, () => shopper.page.getByRole("button", { name: "Get payment details" }).click())
        await shopper.page.waitForURL(/#topup-(\d+)$/)
        const topupId = /#topup-(\d+)$/.exec(shopper.page.url())![1]!
        // The shopper transferred a different amount: nothing matches it, and nothing is guessed.
        const payment = await bankPayment(url, 69_990, `bank-${name}`)
        assert.strictEqual(payment.status, "unmatched")

        const operator = await person(b, url)
        await signInOperator(operator.page)
        await andWait(operator.page, () => operator.page.getByRole("link", { name: "Bank payments" }).first().click())
        const row = operator.page.locator(`[data-payment-id="${payment.payment_id}"]`)
        assert.include(await row.innerText(), "No matching top-up")
        // The choice is behind "Assign…"; the near-amount top-up is offered with who it is.
        assert.isFalse(await row.getByRole("button", { name: "Assign to the chosen top-up" }).isVisible())
        await row.locator("summary").click()
        const offered = row.locator(`[data-candidate="${topupId}"]`)
        assert.include(await offered.innerText(), `@${name}`)
        assert.match(await offered.innerText(), /differs by \d/)
        await offered.locator("input[type=radio]").check()
        await andWait(operator.page, () => row.getByRole("button", { name: "Assign to the chosen top-up" }).click())
        await operator.page.waitForURL(/\/v2\/admin\/payments$/)
        assert.strictEqual(
          await operator.page.getByRole("status").first().innerText(),
          `Payment #${payment.payment_id} assigned to top-up #${topupId}.`
        )
        // All payments are listed: this one now matched, naming its top-up and its owner.
        const done = operator.page.locator(`[data-payment-id="${payment.payment_id}"]`)
        assert.include(await done.innerText(), "Matched")
        assert.include(await done.locator(".person").innerText(), `@${name}`)
        assert.strictEqual(await done.locator("details").count(), 0)
        await shopper.page.waitForFunction(
          () => document.getElementById("balance")?.getAttribute("data-balance") === "69990"
        )
        assert.strictEqual(await shownBalance(shopper.page), 69_990)
      })
    })
  )

  it.effect(
    "sees why an order failed, filters by status, retries it and marks another delivered by hand",
    () =>
      Effect.gen(function* () {
        const { market, url } = yield* WebWorld
        const b = yield* browser
        yield* Effect.promise(async () => {
          const shopper = await person(b, url)
          const name = shopperName("gifter")
          await signInShopper(shopper.page, name)
          await shopper.page.locator("#topup").getByLabel("Amount, UZS").fill("100000")
          await andWait(shopper.page, () => shopper.page.getByRole("button", { name: "Get payment details" }).click())
          await shopper.page.waitForURL(/#topup-\d+$/)
          await bankPayment(url, digits(await shopper.page.locator(".pay-amount .money").textContent()), `bank-${name}`)
          // Fragment does not know this username: the order fails and its price comes back.
          market.unknownUser("ghost_user_42")
          await shopper.page.goto("/v2/dashboard")
          const stars = shopper.page.locator("#buy-stars")
          await stars.getByLabel("Telegram username").fill("ghost_user_42")
          await andWait(shopper.page, () => stars.getByRole("button", { name: "Buy stars" }).click())
          await shopper.page.waitForURL(/\/v2\/orders$/)
          const orderId = await shopper.page.locator("[data-order-id]").first().getAttribute("data-order-id")
          await shopper.page.locator(`[data-order-id="${orderId}"] [data-status="failed"]`).waitFor({ timeout: 60_000 })
          assert.strictEqual(
            await shopper.page.locator(`[data-order-id="${orderId}"] [data-status]`).innerText(),
            "Failed, refunded"
          )

          const operator = await person(b, url)
          await signInOperator(operator.page)
          await andWait(operator.page, () => operator.page.getByRole("link", { name: "Orders", exact: true }).click())
          await operator.page.getByLabel("Status").selectOption("failed")
          await andWait(operator.page, () => operator.page.getByRole("button", { name: "Show" }).click())
          await operator.page.waitForURL(/status=failed/)
          const row = operator.page.locator(`[data-order-id="${orderId}"]`)
          assert.match(await row.locator(".reason").innerText(), /not found|no telegram users/i)
          assert.strictEqual(
            await operator.page.locator('#admin-orders [data-status]:not([data-status="failed"])').count(),
            0
          )

          market.reset()
          await andWait(operator.page, () => row.getByRole("button", { name: "Retry" }).click())
          await operator.page.waitForURL(/\/v2\/admin\/orders$/)
          assert.strictEqual(
            await operator.page.getByRole("status").first().innerText(),
            `Order #${orderId} queued again.`
          )
          await shopper.page.reload()
          await shopper.page
            .locator(`[data-order-id="${orderId}"] [data-status="completed"]`)
            .waitFor({ timeout: 60_000 })

          // Marking by hand: a second failed order, delivered outside the service.
          market.unknownUser("ghost_user_43")
          await shopper.page.goto("/v2/dashboard")
          await stars.getByLabel("Telegram username").fill("ghost_user_43")
          await andWait(shopper.page, () => stars.getByRole("button", { name: "Buy stars" }).click())
          await shopper.page.waitForURL(/\/v2\/orders$/)
          const second = await shopper.page.locator("[data-order-id]").first().getAttribute("data-order-id")
          await shopper.page.locator(`[data-order-id="${second}"] [data-status="failed"]`).waitFor({ timeout: 60_000 })
          await operator.page.goto("/v2/admin/orders?status=failed")
          const failed = operator.page.locator(`[data-order-id="${second}"]`)
          await failed.locator("details:has(form.mark-done) > summary").click()
          await failed.getByLabel(/Transaction id/).fill("manual-transfer-77")
          await andWait(operator.page, () => failed.getByRole("button", { name: "Mark as delivered" }).click())
          await operator.page.waitForURL(/\/v2\/admin\/orders$/)
          assert.strictEqual(
            await operator.page.getByRole("status").first().innerText(),
            `Order #${second} marked as delivered.`
          )
          const done = operator.page.locator(`[data-order-id="${second}"]`)
          assert.strictEqual(await done.locator("[data-status]").innerText(), "Delivered")
          assert.strictEqual(await done.locator("code.tx").innerText(), "manual-transfer-77")
        })
      }),
    { timeout: 150_000 }
  )

  it.effect("changes prices; the shopper sees them before paying", () =>
    Effect.gen(function* () {
      const { url } = yield* WebWorld
      const b = yield* browser
      yield* Effect.promise(async () => {
        const operator = await person(b, url)
        await signInOperator(operator.page)
        await operator.page.getByLabel("One star, UZS").fill("250")
        await operator.page.getByLabel("Premium 6 months, UZS").fill("240000")
        await andWait(operator.page, () => operator.page.getByRole("button", { name: "Save prices" }).click())
        await operator.page.waitForURL(/\/v2\/admin$/)
        assert.strictEqual(await operator.page.getByRole("status").first().innerText(), "Prices saved.")
        assert.strictEqual(await operator.page.getByLabel("One star, UZS").inputValue(), "250")

        // A price that is not a positive whole number is refused in words.
        await operator.page.evaluate(() => document.querySelectorAll("form").forEach((f) => (f.noValidate = true)))
        await operator.page.getByLabel("One star, UZS").fill("0")
        await andWait(operator.page, () => operator.page.getByRole("button", { name: "Save prices" }).click())
        await operator.page.waitForURL(/\/v2\/admin#pricing$/)
        assert.strictEqual(
          await operator.page.getByRole("alert").innerText(),
          "Every price must be a positive whole number of UZS."
        )

        const visitor = await person(b, url)
        await visitor.page.goto("/v2/")
        assert.include(await visitor.page.locator("#prices").innerText(), "250\u00a0UZS")
        await signInShopper(visitor.page, shopperName("pricey"))
        const stars = visitor.page.locator("#buy-stars")
        await stars.getByLabel("Number of stars").fill("200")
        assert.strictEqual(await stars.locator("[data-total]").innerText(), "50,000\u00a0UZS")
        const premium = visitor.page.locator("#buy-premium")
        await premium.getByLabel("Duration").selectOption("6")
        assert.strictEqual(await premium.locator("[data-total]").innerText(), "240,000\u00a0UZS")
      })
    })
  )
})
