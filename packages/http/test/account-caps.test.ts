/**
 * Caps per account over HTTP on real PostgreSQL: what one account holds at once answers 409, what it
 * does per 24 hours answers 429, each with a sentence the web pages show in Uzbek, Russian and English.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { afterAll } from "vitest"
import { errorLines } from "@resale/web/gateway/ErrorText.ts"
import { translator } from "@resale/web/i18n/Translate.ts"
import { call, PNG, signIn } from "./Client.ts"
import { startFakeTelegram } from "./FakeTelegram.ts"
import { pgTestServer, TestServer } from "./TestServer.ts"

const telegram = await startFakeTelegram()
afterAll(() => telegram.close())

/** The sentence a browser would be shown for this answer, in each language. */
const words = (answer: { readonly status: number; readonly text: string }) => {
  const [line] = errorLines(answer.status, answer.text)
  assert.isTrue(line !== undefined && "key" in line, `no translation for: ${answer.text}`)
  if (line === undefined || !("key" in line)) return []
  return (["uz", "ru", "en"] as const).map((locale) => translator(locale).t(line.key, line.params))
}

layer(pgTestServer({ telegramApiUrl: telegram.url }), { timeout: "60 seconds", excludeTestServices: true })(
  "caps per account",
  (it) => {
    it.effect("a fourth open card top-up is 409, in three languages; another account is not affected", () =>
      Effect.gen(function* () {
        const { url } = yield* TestServer
        const cookie = yield* signIn(url, 93001, "capped_topups")
        for (const amount of ["10000", "11000", "12000"]) {
          assert.strictEqual(
            (yield* call(url, "/v2/balance/top-up", { form: { amount_uzs: amount }, cookie })).status,
            200
          )
        }
        const fourth = yield* call(url, "/v2/balance/top-up", { form: { amount_uzs: "13000" }, cookie })
        assert.strictEqual(fourth.status, 409, fourth.text)
        assert.deepStrictEqual([fourth.json.code, fourth.json.params], ["account_cap_open_topups", { limit: 3 }])
        const [uz, ru, en] = words(fourth)
        assert.include(uz, "3 ta")
        assert.include(ru, "уже 3")
        assert.include(en, "already have 3 top-ups waiting")
        const other = yield* signIn(url, 93002, "not_capped")
        assert.strictEqual(
          (yield* call(url, "/v2/balance/top-up", { form: { amount_uzs: "13000" }, cookie: other })).status,
          200
        )
      })
    )

    it.effect("the eleventh ticket of a day is 429 saying when to try again, in three languages", () =>
      Effect.gen(function* () {
        const { url } = yield* TestServer
        const cookie = yield* signIn(url, 93003, "capped_tickets")
        for (let i = 0; i < 10; i++) {
          const made = yield* call(url, "/v2/tickets/new", {
            form: { subject: `question ${i}`, body: "hello" },
            cookie
          })
          assert.strictEqual(made.status, 200, made.text)
        }
        const refused = yield* call(url, "/v2/tickets/new", { form: { subject: "one more", body: "hello" }, cookie })
        assert.strictEqual(refused.status, 429, refused.text)
        assert.strictEqual(
          refused.json.detail,
          "Daily limit reached: at most 10 support requests per 24 hours; try again in 24 h"
        )
        assert.deepStrictEqual([refused.json.code, refused.json.params.limit], ["account_cap_tickets_per_day", 10])
        assert.strictEqual(refused.headers["retry-after"], String(refused.json.params.retry_after_seconds))
        const [uz, ru, en] = words(refused)
        assert.include(uz, "24 soatdan keyin")
        assert.include(ru, "через 24 ч")
        assert.include(en, "Try again in 24 h")
        const tickets = yield* call(url, "/v2/tickets", { cookie })
        assert.strictEqual(tickets.json.total, 10)
      })
    )

    it.effect("receipts: a fourth one under review is 409; the eleventh upload of a day is 429", () =>
      Effect.gen(function* () {
        const { url } = yield* TestServer
        const cookie = yield* signIn(url, 93004, "capped_receipts")
        const upload = (n: number) => {
          const form = new FormData()
          form.set("amount_uzs", String(20_000 + 5_000 * n))
          form.set("receipt", new Blob([new Uint8Array([...PNG, n])], { type: "image/png" }), `r${n}.png`)
          return call(url, "/v2/balance/top-up/receipt", { body: form, cookie })
        }
        const ids: Array<number> = []
        for (let n = 0; n < 3; n++) ids.push((yield* upload(n)).json.topup_id)
        const fourth = yield* upload(3)
        assert.strictEqual(fourth.status, 409, fourth.text)
        assert.strictEqual(fourth.json.code, "account_cap_open_reviews")
        assert.strictEqual(words(fourth).length, 3)
        // Withdrawing frees a place under review, but the uploads of the day still count.
        for (let n = 3; n < 10; n++) {
          yield* call(url, `/v2/balance/topup/${ids.shift()}/cancel`, { method: "POST", cookie })
          const made = yield* upload(n)
          assert.strictEqual(made.status, 200, made.text)
          ids.push(made.json.topup_id)
        }
        yield* call(url, `/v2/balance/topup/${ids.shift()}/cancel`, { method: "POST", cookie })
        const eleventh = yield* upload(10)
        assert.strictEqual(eleventh.status, 429, eleventh.text)
        assert.match(eleventh.json.detail, /^Daily limit reached: at most 10 receipt uploads per 24 hours/)
        assert.strictEqual(eleventh.json.code, "account_cap_uploads_per_day")
        assert.strictEqual(words(eleventh).length, 3)
      })
    )
  }
)
