/** What the example replays share: their world, the documented prices and a sign-in as a named user. */
import { assert } from "@effect/vitest"
import { CoreServices } from "@resale/core/CoreServices.ts"
import { IsolatedPostgres } from "@resale/store/testing/IsolatedPostgres.ts"
import { Effect, Layer } from "effect"
import { SCHEMA_EXAMPLES } from "../src/api/OpenApiExamples.ts"
import { DatabasePing } from "../src/server/HttpApp.ts"
import { makeTestServer } from "./TestServer.ts"
import { adminSignIn, call, callbackPath, cookieNamed, loginPage, signedLogin, TEST_BOT_TOKEN } from "./Client.ts"

/** What the worker records for the documented completed order: its payment and Fragment's Ref#. */
const documentedOrder = SCHEMA_EXAMPLES["Order"] as { tx_id: string; fragment_ref: string }
export const completedAsDocumented = { txId: documentedOrder.tx_id, fragmentRef: documentedOrder.fragment_ref }

/** A production-mode server over a database of its own, with the bot and card the examples name. */
const Store = IsolatedPostgres.layerStore
export const ExampleWorld = Layer.mergeAll(
  makeTestServer(
    Store,
    { sandbox: false, botUsername: "resale_bot", paymentCard: "8600 1234 5678 9012" },
    DatabasePing.layer as never
  ),
  CoreServices.pipe(Layer.provideMerge(Store))
)

/** Signs in through the Telegram callback with a capitalised first name, as the User example has it. */
export const signInAs = (url: string, telegramId: number, username: string) =>
  Effect.gen(function* () {
    const { callback, cookie } = yield* loginPage(url)
    const fields = signedLogin(TEST_BOT_TOKEN, {
      id: String(telegramId),
      first_name: username.charAt(0).toUpperCase() + username.slice(1),
      username,
      auth_date: String(Math.floor(Date.now() / 1000))
    })
    const answer = yield* call(url, callbackPath(callback, fields), { cookie })
    assert.strictEqual(answer.status, 303, answer.text)
    return cookieNamed(answer, "resale_session")
  })

/** Sets the Pricing example's prices as an operator; returns the operator's cookie. */
export const setExamplePrices = (url: string) =>
  Effect.gen(function* () {
    const op = yield* adminSignIn(url)
    const prices = SCHEMA_EXAMPLES["Pricing"] as Record<string, unknown>
    const form = Object.fromEntries(
      ["star_price_uzs", "premium_3_month_uzs", "premium_6_month_uzs", "premium_12_month_uzs"].map((k) => [
        k,
        String(prices[k])
      ])
    )
    assert.strictEqual((yield* call(url, "/v2/admin/pricing", { form, cookie: op })).status, 200)
    return op
  })
