/// <reference lib="dom" />
/**
 * The web UI as `npm start` serves it (its own process, configuration from the environment, real
 * PostgreSQL, sandbox mode): pages with the banner, the sandbox sign-in, a top-up, the operator's
 * sign-in with the admin token, the static assets from the server itself, and a purchase on the wallet
 * page paid by a sandbox wallet.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { createHash, createHmac } from "node:crypto"
import { browser, person } from "./support/Browser.ts"
import { andWait, shopperName, signInShopper } from "./support/Flows.ts"
import { serverProcess } from "./support/ServerProcess.ts"
import { ADMIN_TOKEN } from "./support/WebWorld.ts"

const BOT_TOKEN = "777000:WEB-test-bot-token"

/** The query the widget sends: the fields and Telegram's HMAC of them under SHA-256(bot token). */
const widgetLogin = (fields: Record<string, string>) => {
  const check = Object.keys(fields)
    .sort()
    .map((k) => `${k}=${fields[k]}`)
    .join("\n")
  const secret = createHash("sha256").update(BOT_TOKEN).digest()
  return new URLSearchParams({ ...fields, hash: createHmac("sha256", secret).update(check).digest("hex") }).toString()
}

describe("web UI of the npm start process", () => {
  it.live(
    "serves the shopper's and the operator's pages in sandbox mode",
    () =>
      Effect.gen(function* () {
        const base = yield* serverProcess({
          SANDBOX: "true",
          ADMIN_TOKEN,
          TELEGRAM_API_URL: "http://127.0.0.1:9",
          TELEGRAM_BOT_TOKEN: BOT_TOKEN,
          TELEGRAM_BOT_USERNAME: "resale_web_test_bot"
        })
        const b = yield* browser
        yield* Effect.promise(async () => {
          const visitor = await fetch(`${base}/v2/`, { headers: { accept: "text/html" } })
          assert.strictEqual(visitor.status, 200)
          assert.include(visitor.headers.get("content-security-policy") ?? "", "script-src 'self'")
          const page = await visitor.text()
          const asset = /\/v2\/static\/app\.js\?v=([0-9a-f]+)/.exec(page)
          assert.isNotNull(asset)
          const script = await fetch(`${base}/v2/static/app.js?v=${asset![1]}`)
          assert.strictEqual(script.headers.get("cache-control"), "public, max-age=31536000, immutable")
          assert.include(script.headers.get("content-type") ?? "", "text/javascript")

          // The wallet page on the process's own sandbox world: a visitor buys with a sandbox wallet.
          const { page: buyer } = await person(b, base)
          await buyer.goto("/v2/wallet")
          await buyer.fill("#f-username", "processbuyer")
          await andWait(buyer, () => buyer.locator("button[name=sandbox_wallet]").click())
          await buyer.waitForURL(/\/v2\/wallet\/order\?/)
          await andWait(buyer, () => buyer.locator("form[action='/v2/wallet/sandbox-pay'] button").click())
          await buyer.locator("#wallet-state[data-state=delivered]").waitFor({ timeout: 60_000 })

          // The Telegram Login Widget is on the home page, sending its signed data to our callback.
          assert.include(page, `data-telegram-login="resale_web_test_bot"`)
          // Bound to the browser that opened the page: a state cookie and the state in the callback URL.
          assert.match(page, new RegExp(`data-auth-url="${base}/v2/auth/messenger/callback\\?state=[A-Za-z0-9_-]{43}"`))
          const { page: telegram } = await person(b, base)
          await telegram.goto("/v2/")
          const authUrl = await telegram.locator("script[data-auth-url]").getAttribute("data-auth-url")
          await telegram.goto(
            `${authUrl}&${widgetLogin({ id: "5550001", first_name: "Dilnoza", username: "dilnoza_t", auth_date: String(Math.floor(Date.now() / 1000)) })}`
          )
          await telegram.waitForURL(/\/v2\/dashboard$/)
          assert.strictEqual(await telegram.locator("main > p").first().innerText(), "Hello, Dilnoza!")
          const forged = await telegram.goto(
            `/v2/auth/messenger/callback?id=5550001&auth_date=1&hash=${"0".repeat(64)}`
          )
          assert.strictEqual(forged?.status(), 401)
          assert.strictEqual(
            await telegram.getByRole("alert").innerText(),
            "Telegram sign-in failed. Please try again."
          )

          const { page: shopper } = await person(b, base, { locale: "ru-RU" })
          await shopper.goto("/v2/")
          assert.include(await shopper.locator(".sandbox").innerText(), "Тестовый режим")
          await signInShopper(shopper, shopperName("proc"))
          await shopper.locator("#topup input[name=amount_uzs]").fill("12000")
          await andWait(shopper, () => shopper.locator("#topup button[type=submit]").click())
          await shopper.waitForURL(/#topup-\d+$/)
          assert.match(
            await shopper.getByRole("status").first().innerText(),
            /Пополнение №\d+ создано\. Переведите ровно 12\s\d{3}\sсум\./
          )

          const { page: operator } = await person(b, base)
          await operator.goto("/v2/admin/login")
          await operator.getByLabel("Admin token").fill("not-the-token")
          await andWait(operator, () => operator.locator("main form button[type=submit]").click())
          await operator.waitForURL(/\/v2\/admin\/login$/)
          assert.strictEqual(await operator.getByRole("alert").innerText(), "Wrong admin token.")
          await operator.getByLabel("Admin token").fill(ADMIN_TOKEN)
          await andWait(operator, () => operator.locator("main form button[type=submit]").click())
          await operator.waitForURL(/\/v2\/admin$/)
          assert.strictEqual(await operator.locator("h1").innerText(), "Operator panel")
          assert.strictEqual(
            await operator
              .locator(".counter")
              .filter({ hasText: "waiting for a transfer" })
              .locator(".count")
              .innerText(),
            "1"
          )
        })
      }),
    { timeout: 90_000 }
  )
})
