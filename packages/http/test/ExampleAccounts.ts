/** What the example replays share: the documented prices and a sign-in as a named user. */
import { assert } from "@effect/vitest"
import { Effect } from "effect"
import { SCHEMA_EXAMPLES } from "../src/api/OpenApiExamples.ts"
import { adminSignIn, call, callbackPath, cookieNamed, loginPage, signedLogin, TEST_BOT_TOKEN } from "./Client.ts"

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
