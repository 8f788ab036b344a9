/**
 * The top-up limits are defined once (core's `TopupSettings`) and read when the layers are built: an
 * override given to the server reaches both the service that checks an amount and the dashboard's form
 * that tells the shopper the bounds (it once spelled the defaults on its own).
 */
import { assert, layer } from "@effect/vitest"
import { STRICT_TOPUP_SETTINGS } from "@resale/core/testing/TopupSettingsReach.ts"
import { TopupSettings } from "@resale/core/topups/TopupSettings.ts"
import { IsolatedPostgres } from "@resale/store/testing/IsolatedPostgres.ts"
import { Effect, Layer } from "effect"
import { DatabasePing } from "../src/server/HttpApp.ts"
import { call, signIn } from "./Client.ts"
import { makeTestServer, TestServer } from "./TestServer.ts"

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
    })
  )
})
