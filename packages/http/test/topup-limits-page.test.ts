/**
 * The top-up limits are defined once (core's `TopupSettings`) and read when the layers are built: an
 * override given to the server reaches both the service that checks an amount and the dashboard's form
 * that tells the shopper the bounds (it once spelled the defaults on its own), and the receipt's size
 * reaches the upload's multipart and body limits, through the API route and the browser's form alike.
 */
import { assert, layer } from "@effect/vitest"
import { STRICT_TOPUP_SETTINGS } from "@resale/core/testing/TopupSettingsReach.ts"
import { TopupSettings } from "@resale/core/topups/TopupSettings.ts"
import { IsolatedPostgres } from "@resale/store/testing/IsolatedPostgres.ts"
import { Effect, Layer } from "effect"
import { DatabasePing } from "../src/server/HttpApp.ts"
import { receiptLimits } from "@resale/webkit/ReceiptLimits.ts"
import { type Answer, call, cookieNamed, PNG, signIn } from "./Client.ts"
import { makeTestServer, TestServer } from "./TestServer.ts"

/** A receipt of `size` bytes: a PNG's first bytes, then padding. */
const receiptOf = (size: number) => {
  const bytes = new Uint8Array(size)
  bytes.set(PNG)
  return new Blob([bytes], { type: "image/png" })
}

/** The flash a browser's form post left for the next page (its signed cookie's JSON). */
const flashOf = (answer: Answer) => {
  const value = cookieNamed(answer, "resale_flash").split("=")[1]!
  return JSON.parse(Buffer.from(value.slice(0, value.lastIndexOf(".")), "base64url").toString("utf8"))
}

const strict = Layer.merge(IsolatedPostgres.layerStore, Layer.succeed(TopupSettings)(STRICT_TOPUP_SETTINGS))

layer(makeTestServer(strict, {}, DatabasePing.layer as never), {
  timeout: "240 seconds",
  excludeTestServices: true
})("top-up limits overridden for the server", (it) => {
  it.effect("the dashboard's top-up form and the service both use the override", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const cookie = yield* signIn(url, 9_101, "limits_reader")
      const page = yield* call(url, "/v2/dashboard", { cookie, headers: { accept: "text/html" } })
      assert.strictEqual(page.status, 200)
      const form = page.text.slice(page.text.indexOf('action="/v2/balance/top-up"'))
      const amount = form.slice(form.indexOf('name="amount_uzs"'), form.indexOf(">", form.indexOf('name="amount_uzs"')))
      assert.include(amount, `min="${STRICT_TOPUP_SETTINGS.minUzs}"`)
      assert.include(amount, `max="${STRICT_TOPUP_SETTINGS.maxUzs}"`)
      const below = yield* call(url, "/v2/balance/top-up", {
        cookie,
        form: { amount_uzs: String(STRICT_TOPUP_SETTINGS.minUzs - 1) }
      })
      assert.strictEqual(below.status, 400)
      assert.include(below.text, String(STRICT_TOPUP_SETTINGS.minUzs))
      // The receipt's label names the overridden size (100 bytes), not the default 5 MB.
      const english = yield* call(url, "/v2/dashboard", {
        cookie,
        headers: { accept: "text/html", "accept-language": "en" }
      })
      assert.include(english.text, "Receipt (image or PDF, up to 100\u00a0B)")
      assert.notInclude(english.text, "5\u00a0MB")
    })
  )

  it.effect("a receipt over the overridden size is refused as an oversized one is, via the API and the web form", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const max = STRICT_TOPUP_SETTINGS.receiptMaxBytes
      const session = yield* signIn(url, 9_102, "receipt_sender")
      const upload = (size: number, fields: Record<string, string> = {}, headers: Record<string, string> = {}) => {
        const form = new FormData()
        for (const [name, value] of Object.entries(fields)) form.set(name, value)
        form.set("amount_uzs", String(STRICT_TOPUP_SETTINGS.minUzs + size))
        form.set("receipt", receiptOf(size), "receipt.png")
        return call(url, "/v2/balance/top-up/receipt", { body: form, cookie, headers })
      }
      let cookie = session

      // The API route: the multipart limit answers as for a receipt over the default 5 MB.
      const over = yield* upload(max * 2)
      assert.strictEqual(over.status, 400, over.text)
      assert.deepInclude(over.json, { detail: "File too large", code: "payload_too_large" })
      const under = yield* upload(max / 2)
      assert.strictEqual(under.status, 200, under.text)
      assert.strictEqual(under.json.status, "review")
      // The body limit is built on it too: a body past it is refused before it is read.
      const body = receiptLimits(STRICT_TOPUP_SETTINGS).body
      const huge = yield* upload(body)
      assert.strictEqual(huge.status, 413, huge.text)
      assert.include(huge.json.detail, `larger than ${body} bytes`)

      // The browser's form: the same refusal, told as the receipt being too large.
      const page = yield* call(url, "/v2/dashboard", { cookie, headers: { accept: "text/html" } })
      cookie = `${session}; ${cookieNamed(page, "resale_csrf")}`
      const csrf = /name="_csrf" value="([^"]+)"/.exec(page.text)![1]!
      const browser = { accept: "text/html" }
      const refused = yield* upload(max * 2, { _csrf: csrf }, browser)
      assert.strictEqual(refused.status, 303, refused.text)
      assert.deepInclude(flashOf(refused), {
        kind: "error",
        lines: [{ key: "error.receiptLarge", params: { size: `bytes:${max}` } }]
      })
      // The next page tells it in the reader's language, naming the overridden size.
      const told = yield* call(url, "/v2/dashboard", {
        cookie: `${cookie}; ${cookieNamed(refused, "resale_flash")}`,
        headers: { ...browser, "accept-language": "ru" }
      })
      assert.include(told.text, "Чек слишком большой: не более 100\u00a0Б.")
      const accepted = yield* upload(max / 2, { _csrf: csrf }, browser)
      assert.strictEqual(accepted.status, 303, accepted.text)
      assert.strictEqual(flashOf(accepted).kind, "ok")
    })
  )
})
