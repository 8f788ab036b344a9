/// <reference lib="dom" />
/**
 * What people do in the browser tests, written once: sign in, read the balance, and the bank relay
 * posting a received card payment (a machine, so plain HTTP with the admin token).
 */
import { assert } from "@effect/vitest"
import type { Page } from "playwright-core"
import { ADMIN_TOKEN } from "./WebWorld.ts"

let counter = 0

/** A sandbox shopper name unique to this run (names are Telegram-like: letters, digits, _). */
export const shopperName = (prefix: string) => `${prefix}_${process.pid}_${++counter}`

/** Signs in with the sandbox form of the home page; ends on the dashboard. */
export const signInShopper = async (page: Page, name: string): Promise<void> => {
  await page.goto("/v2/")
  await page.getByLabel(/sandbox user name|тестового пользователя|sinov foydalanuvchisi/i).fill(name)
  await page.click("#sandbox-sign-in")
  await page.waitForURL("**/v2/dashboard")
}

/** Signs in on the operator login page with the admin token; ends on the panel. */
export const signInOperator = async (page: Page): Promise<void> => {
  await page.goto("/v2/admin/login")
  await page.getByLabel(/admin token|токен администратора|administrator tokeni/i).fill(ADMIN_TOKEN)
  await andWait(page, () => page.locator("main form button[type=submit]").click())
  await page.waitForURL("**/v2/admin")
}

/** The bank-message relay reports a card payment (POST /v2/api/admin/payments/incoming). */
export const bankPayment = async (base: string, amountUzs: number, externalId: string) => {
  const response = await fetch(`${base}/v2/api/admin/payments/incoming`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-admin-token": ADMIN_TOKEN },
    body: JSON.stringify({ amount_uzs: amountUzs, card_last4: "0000", external_id: externalId })
  })
  assert.strictEqual(response.status, 200, await response.clone().text())
  return (await response.json()) as { payment_id: number; status: string; topup_id: number | null }
}

/** The balance the page shows, as a number of so'm (from its data attribute, kept in step by the script). */
export const shownBalance = async (page: Page): Promise<number> =>
  Number(await page.locator("#balance").getAttribute("data-balance"))

/** Digits only: "50 001 so‘m" -> 50001. */
export const digits = (text: string | null): number => Number((text ?? "").replace(/\D/g, ""))

/** Marks the current document; `stillSameDocument` is false after any navigation or reload. */
export const markDocument = (page: Page) => page.evaluate(() => ((window as unknown as { __mark: number }).__mark = 42))
export const stillSameDocument = (page: Page) =>
  page.evaluate(() => (window as unknown as { __mark?: number }).__mark === 42)

/** A 1x1 PNG: a receipt the server accepts (it checks content, not the name). */
export const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64"
)

/** Another photo of a receipt each time: the same file twice is held as a duplicate of its own. */
let photos = 0
export const anotherPng = (): Buffer => Buffer.concat([PNG, Buffer.from([++photos & 0xff, photos >> 8])])

/**
 * Runs `act` (a click that submits a form or follows a link) and waits until the page it leads to
 * has loaded, even when that page has the same address as the current one (a form that returns to
 * its own page): waiting for the URL alone would read the old page.
 */
export const andWait = async (page: Page, act: () => Promise<unknown>): Promise<void> => {
  const navigated = page.waitForEvent("framenavigated", { predicate: (frame) => frame === page.mainFrame() })
  await act()
  await navigated
  await page.waitForLoadState("load")
}
