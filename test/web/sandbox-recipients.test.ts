/// <reference lib="dom" />
/**
 * The sandbox's test recipients that `sandbox.test.ts` and `sandbox-attention.test.ts` leave out,
 * met as a shopper on a phone and an operator on a desktop would meet them (docs/sandbox.md, "Test
 * recipients"): `sandbox_timeout` is queued again with its backoff and refunded once at the attempt
 * limit, `sandbox_late` ends paid with the delivery unconfirmed, `sandbox_lost_payment` is retried
 * and lands, `sandbox_gift_refused` is refunded, `sandbox_gift_lost` is found sent and completes.
 * One world for the file, timed by the product's own settings (ORDER_RETRY_DELAY, ORDER_MAX_ATTEMPTS,
 * SANDBOX_SLOW_SEARCH, SANDBOX_LATE_DELIVERY) so that nothing waits for real minutes.
 */
import { assert, layer } from "@effect/vitest"
import { Duration, Effect } from "effect"
import type { Page } from "playwright-core"
import { browser, person, PHONE, screenshot } from "./support/Browser.ts"
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

const world = webWorldLayer(
  // A missed attempt waits 10 s, then 20 s; the third one is the last (production: 30 s doubling, 8
  // attempts). Waits long enough that an operator's reload finds the order between attempts even on a
  // loaded machine (they cost time, not work).
  { retryDelay: Duration.seconds(10), maxAttempts: 3 },
  {},
  // The hot wallet's messages live 6 s, so a payment the chain lost is known unpaid within seconds;
  // Fragment delivers only what the chain shows paid, as under `npm start`.
  { ttlSeconds: 6, expiryMarginSeconds: 1, chainPaid: true, magic: { timeoutMs: 4_000, lateMs: 8_000 } }
)

/** Tops the shopper up by a card transfer the bank relay reports; answers the credited amount. */
const topUp = async (page: Page, url: string, name: string): Promise<number> => {
  await page.locator("#topup input[name=amount_uzs]").fill("200000")
  await andWait(page, () => page.locator("#topup button[type=submit]").click())
  await page.waitForURL(/#topup-\d+$/)
  const payable = digits(await page.locator(".pay-amount .money").textContent())
  await bankPayment(url, payable, `bank-${name}`)
  await page.waitForFunction(
    (n) => document.getElementById("balance")?.getAttribute("data-balance") === String(n),
    payable
  )
  return payable
}

/** Orders 50 stars for `recipient` from the dashboard; answers the new order's id. */
const buyStars = async (page: Page, recipient: string): Promise<string> => {
  await page.goto("/v2/dashboard")
  const stars = page.locator("#buy-stars")
  await stars.locator("input[name=username]").fill(recipient)
  await andWait(page, () => stars.locator("button[type=submit]").click())
  await page.waitForURL(/\/v2\/orders$/)
  return (await page
    .locator("[data-order-id]", { hasText: `@${recipient}` })
    .first()
    .getAttribute("data-order-id"))!
}

const sendGift = async (page: Page, recipient: string): Promise<string> => {
  await page.goto("/v2/gifts")
  const form = page.locator("#send-gift")
  await form.locator("input[name=username]").fill(recipient)
  await andWait(page, () => form.locator("button[type=submit]").click())
  await page.waitForURL(/\/v2\/orders$/)
  return (await page
    .locator("[data-order-id]", { hasText: `@${recipient}` })
    .first()
    .getAttribute("data-order-id"))!
}

/** The status badge of an order on the page, once it shows `status` (the page updates itself). */
const settles = (page: Page, id: string, status: string) =>
  page.locator(`[data-order-id="${id}"] [data-status="${status}"]`).waitFor({ timeout: 150_000 })

/** The operator's row of an order (reason, attempts) on the orders panel. */
const operatorRow = async (page: Page, id: string) => {
  await page.goto(`/v2/admin/orders`)
  const row = page.locator(`[data-order-id="${id}"]`)
  const cells = await row.locator("td").allInnerTexts()
  return {
    row,
    status: await row.locator("[data-status]").getAttribute("data-status"),
    reason: cells[6] ?? "",
    attempts: Number(cells[7])
  }
}

layer(world, { timeout: "360 seconds", excludeTestServices: true })(
  "the other test recipients in the browser",
  (it) => {
    it.effect(
      "stars for sandbox_timeout, sandbox_late and sandbox_lost_payment end where the table says",
      () =>
        Effect.gen(function* () {
          const { url } = yield* WebWorld
          const b = yield* browser
          yield* Effect.promise(async () => {
            const { page } = await person(b, url, { viewport: PHONE })
            const name = shopperName("magic_stars")
            await signInShopper(page, name)
            // The operator is signed in first, so nothing slow stands between the retry and their look at it.
            const operator = await person(b, url)
            await signInOperator(operator.page)
            const credited = await topUp(page, url, name)
            const timeout = await buyStars(page, "sandbox_timeout")
            const late = await buyStars(page, "sandbox_late")
            const lost = await buyStars(page, "sandbox_lost_payment")
            const price = digits(await page.locator(`[data-order-id="${timeout}"] td`).nth(3).innerText())

            // The timeout: nothing was paid, so the shopper is told the attempt missed and when the next one runs.
            const retry = page.locator(`[data-order-id="${timeout}"] [data-order-retry]`)
            await retry.waitFor({ timeout: 60_000 })
            assert.match(await retry.innerText(), /did not go through, nothing was paid; it is tried again/)
            assert.strictEqual(
              await page.locator(`[data-order-id="${timeout}"] [data-status]`).getAttribute("data-status"),
              "queued"
            )
            await screenshot(page, "sandbox-timeout-retrying-phone")
            // The operator sees the backoff: the attempts so far and when the next one runs. Their page does
            // not update itself, so it is reloaded (once a second, no busier) until the order is between two
            // attempts; only the order's end (the last attempt missed too) stops the looking.
            let next = ""
            let status: string | null = "queued"
            while (next === "" && status !== "failed") {
              const seen = await operatorRow(operator.page, timeout)
              status = seen.status
              if ((await seen.row.locator("[data-next-attempt]").count()) > 0)
                next = await seen.row.locator("td").nth(7).innerText()
              else await operator.page.waitForTimeout(1_000)
            }
            assert.match(next, /^[12] next at \d\d:\d\d$/, "the operator saw the order between two attempts")

            // Paid on chain, Fragment never confirmed it in time: the shopper reads it sent, with its Ref#.
            await settles(page, late, "completed")
            const sent = await page.locator(`[data-order-id="${late}"] [data-order-sent]`).innerText()
            assert.match(sent, /^Sent: paid on chain, reference Ref#\S+\.$/)
            assert.notInclude(await page.locator(`[data-order-id="${late}"]`).innerText(), "not confirmed")
            await settles(page, lost, "completed")
            await settles(page, timeout, "failed")
            await screenshot(page, "sandbox-recipients-stars-phone")
            // Only the timeout's money came back, once: two orders stay paid.
            await page.goto("/v2/dashboard")
            assert.strictEqual(await shownBalance(page), credited - 2 * price)

            const t = await operatorRow(operator.page, timeout)
            assert.deepStrictEqual([t.status, t.attempts], ["failed", 3])
            assert.match(t.reason, /gave up after 3 attempts/)
            const l = await operatorRow(operator.page, late)
            assert.strictEqual(l.status, "paid_unconfirmed")
            assert.include(l.reason, "Ref#", "the payment evidence is shown")
            assert.include(l.reason, "accepted", "with Fragment's answer to the signed message")
            const p = await operatorRow(operator.page, lost)
            // One attempt lost on the chain (nothing paid for it), the retry delivered.
            assert.deepStrictEqual([p.status, p.attempts], ["completed", 1])
            await screenshot(operator.page, "sandbox-recipients-stars-operator")
          })
        }),
      300_000
    )

    it.effect(
      "gifts for sandbox_gift_refused are refunded once; sandbox_gift_lost is found sent and completes",
      () =>
        Effect.gen(function* () {
          const { url } = yield* WebWorld
          const b = yield* browser
          yield* Effect.promise(async () => {
            const { page } = await person(b, url, { viewport: PHONE, locale: "ru-RU" })
            const name = shopperName("magic_gifts")
            await signInShopper(page, name)
            const credited = await topUp(page, url, name)
            const refused = await sendGift(page, "sandbox_gift_refused")
            const lost = await sendGift(page, "sandbox_gift_lost")
            const price = digits(await page.locator(`[data-order-id="${lost}"] td`).nth(3).innerText())
            await settles(page, refused, "failed")
            await settles(page, lost, "completed")
            await screenshot(page, "sandbox-recipients-gifts-ru-phone")
            await page.goto("/v2/dashboard")
            assert.strictEqual(await shownBalance(page), credited - price)

            const operator = await person(b, url)
            await signInOperator(operator.page)
            assert.strictEqual((await operatorRow(operator.page, refused)).status, "failed")
            assert.strictEqual((await operatorRow(operator.page, lost)).status, "completed")
            await screenshot(operator.page, "sandbox-recipients-gifts-operator")
          })
        }),
      300_000
    )
  }
)
