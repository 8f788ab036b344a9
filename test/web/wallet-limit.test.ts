/// <reference lib="dom" />
/**
 * The wallet page's posts meet the direct surface's rate limit per client address: with a budget of
 * two quotes (refilled one per 30 s, slow enough for a loaded machine), the third quote is refused in the page's words with the seconds
 * to wait, and Fragment is not asked for an invoice; once that wait is over, a quote passes again.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { browser, person, PHONE } from "./support/Browser.ts"
import { andWait } from "./support/Flows.ts"
import { WebWorld, webWorldLayer } from "./support/WebWorld.ts"

const LIMIT = { perMinute: 2, burst: 2 }

layer(webWorldLayer({}, {}, {}, { rateLimit: LIMIT }), { timeout: "180 seconds", excludeTestServices: true })(
  "the wallet page's rate limit",
  (it) => {
    it.effect(
      "past the limit a quote is refused in words with the wait and opens no invoice; after the wait one passes",
      () =>
        Effect.gen(function* () {
          const { url, market } = yield* WebWorld
          const b = yield* browser
          yield* Effect.promise(async () => {
            const { context, page } = await person(b, url, { locale: "en-US", viewport: PHONE })
            const quote = async () => {
              await page.goto("/v2/wallet")
              await page.fill("#f-username", "walletlimitbuyer")
              await page.fill("#f-amount", "50")
              await andWait(page, () => page.locator("button[name=sandbox_wallet]").click())
            }
            const invoices = () => market.calls("initBuyStarsRequest").length
            for (let i = 0; i < LIMIT.burst; i++) {
              await quote()
              await page.waitForURL(/\/v2\/wallet\/order\?/)
            }
            const opened = invoices()
            assert.strictEqual(opened, LIMIT.burst)

            await quote()
            assert.match(new URL(page.url()).pathname, /^\/v2\/wallet$/)
            const text = await page.locator("#buy [role=alert]").innerText()
            const wait = Number(/Wait (\d+) seconds? and try again/.exec(text)?.[1])
            assert.isTrue(wait >= 1 && wait <= 30, `a wait of 1 to 30 seconds in words: ${text}`)
            // what was typed is put back, and Fragment was not asked for an invoice
            assert.strictEqual(await page.inputValue("#f-username"), "walletlimitbuyer")
            assert.strictEqual(invoices(), opened)

            await page.waitForTimeout(wait * 1000 + 200)
            await quote()
            await page.waitForURL(/\/v2\/wallet\/order\?/)
            assert.strictEqual(invoices(), opened + 1)
            await context.close()
          })
        }),
      120_000
    )
  }
)
