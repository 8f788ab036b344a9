/// <reference lib="dom" />
/**
 * The wallet page in headless Chromium on the sandbox chain, at 360 px: a visitor who is not signed in
 * buys Stars for a username with a sandbox wallet (quote, the `ton://` link and its QR code, pay with the
 * sandbox wallet) and watches the order reach `delivered` on the page itself, with no phrase asked for;
 * then names that wallet by its address, as a visitor names their own, and is quoted for it from the chain.
 * In each language, a wrong wallet address and an unknown wallet come back as words of that language.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { browser, person, PHONE, screenshot } from "./support/Browser.ts"
import { andWait } from "./support/Flows.ts"
import { WebWorld, webWorldLayer } from "./support/WebWorld.ts"

const LOCALES = [
  ["en", "en-US"],
  ["ru", "ru-RU"],
  ["uz", "uz-UZ"]
] as const

/** A well-formed address nobody has used on the sandbox chain. */
const UNUSED_ADDRESS = `0:${"ab".repeat(32)}`

layer(webWorldLayer({}, {}, { chainPaid: true }), { timeout: "180 seconds", excludeTestServices: true })(
  "the wallet page",
  (it) => {
    it.effect(
      "quote, pay with the sandbox wallet, delivered: at 360 px, without signing in or a phrase; then a wallet named by its address",
      () =>
        Effect.gen(function* () {
          const { url } = yield* WebWorld
          const b = yield* browser
          yield* Effect.promise(async () => {
            const { context, page } = await person(b, url, { locale: "en-US", viewport: PHONE })
            await page.goto("/v2/")
            await andWait(page, () => page.locator("#wallet-link").click())
            await page.waitForURL(/\/v2\/wallet$/)
            assert.strictEqual(await page.locator("input[name=seed], input[name=mnemonic]").count(), 0)
            await page.fill("#f-username", "walletpagebuyer")
            await page.fill("#f-amount", "50")
            await andWait(page, () => page.locator("button[name=sandbox_wallet]").click())
            await page.waitForURL(/\/v2\/wallet\/order\?/)
            const firstWallet = new URL(page.url()).searchParams.get("sandbox") ?? ""
            assert.match(firstWallet, /^[0-9a-f-]{36}$/)
            assert.strictEqual(await page.locator("#wallet-state").getAttribute("data-state"), "awaiting_payment")
            assert.include(await page.locator("main .lead").innerText(), "50 Telegram Stars for @walletpagebuyer")
            const link = await page.locator("#ton-link").getAttribute("href")
            assert.match(link ?? "", /^ton:\/\/transfer\/[A-Za-z0-9_%:-]+\?amount=\d+&bin=[A-Za-z0-9_-]+$/)
            assert.strictEqual(await page.locator(".qr svg").count(), 1)
            const width = await page.evaluate(() => document.documentElement.scrollWidth)
            assert.isAtMost(width, PHONE.width, "no sideways scrolling at 360 px")
            await screenshot(page, "wallet-quote-phone")
            await andWait(page, () => page.locator("form[action='/v2/wallet/sandbox-pay'] button").click())
            // the page follows the order by itself until it is final
            await page.locator("#wallet-state[data-state=delivered]").waitFor({ timeout: 60_000 })
            assert.include(await page.locator("#wallet-state").innerText(), "Delivered")
            assert.strictEqual(await page.locator("#ton-link").count(), 0)
            assert.isAtMost(await page.evaluate(() => document.documentElement.scrollWidth), PHONE.width)
            await screenshot(page, "wallet-delivered-phone")

            // The sandbox wallet has now sent a transfer: named by its address, like a visitor's own
            // wallet, it is described from the chain and quoted; the link pays Fragment from it.
            const paid = new URL(page.url(), url)
            const address = paid.searchParams.get("address") ?? ""
            await page.goto("/v2/wallet")
            await page.fill("#f-username", "walletpagenamed")
            await page.fill("#f-amount", "60")
            await page.fill("#f-address", address)
            await andWait(page, () => page.locator("#buy button[type=submit]:not([name])").click())
            await page.waitForURL(/\/v2\/wallet\/order\?/)
            assert.strictEqual(await page.locator("#wallet-state").getAttribute("data-state"), "awaiting_payment")
            assert.include(await page.locator("main .lead").innerText(), "60 Telegram Stars for @walletpagenamed")
            assert.include(await page.locator("#pay").innerText(), "ton://transfer/")
            // a visitor's own wallet gets no sandbox button: the link and the QR code are the way to pay
            assert.strictEqual(await page.locator("form[action='/v2/wallet/sandbox-pay']").count(), 0)
            // the sandbox wallet pays it (its name is in the first order's link), as a wallet app would
            const named = new URL(page.url(), url)
            named.searchParams.set("sandbox", firstWallet)
            await page.goto(named.pathname + named.search)
            await andWait(page, () => page.locator("form[action='/v2/wallet/sandbox-pay'] button").click())
            await page.locator("#wallet-state[data-state=delivered]").waitFor({ timeout: 60_000 })
            await context.close()
          })
        }),
      170_000
    )

    it.effect(
      "in each language a refused quote is told in that language, never the server's own text",
      () =>
        Effect.gen(function* () {
          const { url } = yield* WebWorld
          const b = yield* browser
          yield* Effect.promise(async () => {
            const seen = new Set<string>()
            for (const [lang, locale] of LOCALES) {
              const { context, page } = await person(b, url, { locale, viewport: PHONE })
              await page.goto("/v2/wallet")
              assert.strictEqual((await page.locator("html").getAttribute("lang"))?.slice(0, 2), lang)
              for (const address of ["not-an-address", UNUSED_ADDRESS]) {
                await page.fill("#f-username", "walletpagebuyer")
                await page.fill("#f-amount", "50")
                await page.fill("#f-address", address)
                await andWait(page, () => page.locator("#buy button[type=submit]:not([name])").click())
                const alert = page.locator("#buy [role=alert]")
                const text = await alert.innerText()
                // what was typed is put back, and the words are the page's own, not the use case's
                assert.strictEqual(await page.inputValue("#f-address"), address)
                assert.notMatch(text, /Checkout|Refused|Invalid|undefined|\{/)
                seen.add(text)
              }
              assert.isAtMost(await page.evaluate(() => document.documentElement.scrollWidth), PHONE.width)
              await screenshot(page, `wallet-refused-${lang}`)
              await context.close()
            }
            // two reasons in three languages: six different sentences
            assert.strictEqual(seen.size, 6)
          })
        }),
      170_000
    )
  }
)
