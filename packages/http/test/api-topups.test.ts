/**
 * The API key's JSON top-up (`POST /v2/api/topups`) over real HTTP and PostgreSQL: the same record the
 * account's form top-up answers, an `Idempotency-Key` replayed, the top-up followed by id, and another
 * account's top-up not found.
 */
import { assert, layer } from "@effect/vitest"
import { IsolatedPostgres } from "@resale/store/testing/IsolatedPostgres.ts"
import { Effect } from "effect"
import { DatabasePing } from "../src/server/HttpApp.ts"
import { call, signIn } from "./Client.ts"
import { makeTestServer, TestServer } from "./TestServer.ts"

const World = makeTestServer(IsolatedPostgres.layerStore, { sandbox: true }, DatabasePing.layer as never)

layer(World, { timeout: "60 seconds", excludeTestServices: true })("API top-ups (JSON)", (it) => {
  const account = (telegramId: number, name: string) =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const cookie = yield* signIn(url, telegramId, name)
      const key = (yield* call(url, "/v2/api-key/rotate", { method: "POST", cookie })).json.api_key as string
      return { cookie, headers: { "x-api-key": key } }
    })

  it.effect("a JSON amount creates the card top-up the form creates; the same key replays it", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const { cookie, headers } = yield* account(99101, "scripted")
      const keyed = { ...headers, "idempotency-key": "topup-1" }
      const first = yield* call(url, "/v2/api/topups", { json: { amount_uzs: 50_000 }, headers: keyed })
      assert.strictEqual(first.status, 200, first.text)
      assert.deepInclude(first.json.topup, { method: "card", status: "pending", amount_uzs: 50_000 })
      assert.isAtLeast(first.json.payable_uzs, 50_000)
      assert.deepStrictEqual(Object.keys(first.json).toSorted(), [
        "expires_at",
        "pay_to_card",
        "payable_uzs",
        "sandbox",
        "topup"
      ])
      const again = yield* call(url, "/v2/api/topups", { json: { amount_uzs: 50_000 }, headers: keyed })
      assert.deepStrictEqual(again.json, first.json)
      assert.strictEqual(again.headers["idempotent-replayed"], "true")
      const other = yield* call(url, "/v2/api/topups", { json: { amount_uzs: 60_000 }, headers: keyed })
      assert.deepStrictEqual([other.status, other.json.code], [409, "idempotency_key_reused"])

      const id = first.json.topup.topup_id as number
      const followed = yield* call(url, `/v2/api/topups/${id}`, { headers })
      assert.deepStrictEqual(followed.json, first.json.topup)
      // the signed-in form answers the same shape
      const form = yield* call(url, "/v2/balance/top-up", { form: { amount_uzs: "70000" }, cookie })
      assert.deepStrictEqual(Object.keys(form.json).toSorted(), Object.keys(first.json).toSorted())
    })
  )

  it.effect("a non-number amount is invalid input; another account's top-up is not found", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const owner = yield* account(99102, "owner")
      const stranger = yield* account(99103, "stranger")
      const text = yield* call(url, "/v2/api/topups", { json: { amount_uzs: "fifty" }, headers: owner.headers })
      assert.strictEqual(text.status, 422, text.text)
      const small = yield* call(url, "/v2/api/topups", { json: { amount_uzs: 1 }, headers: owner.headers })
      assert.deepStrictEqual([small.status, small.json.code], [400, "topup_amount_invalid"])
      const made = yield* call(url, "/v2/api/topups", { json: { amount_uzs: 50_000 }, headers: owner.headers })
      const id = made.json.topup.topup_id as number
      const theirs = yield* call(url, `/v2/api/topups/${id}`, { headers: stranger.headers })
      assert.deepStrictEqual([theirs.status, theirs.json.code], [404, "topup_not_found"])
      const keyless = yield* call(url, `/v2/api/topups/${id}`)
      assert.strictEqual(keyless.status, 401)
    })
  )
})
