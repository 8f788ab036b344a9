/**
 * Webhook limits over real HTTP and PostgreSQL: a flood of test events stops at the per-endpoint cap
 * with 429, `Retry-After` and a stable code; rotating the API key removes the account's webhook
 * endpoints unless the owner asks to keep them (JSON and the page's form alike).
 */
import { assert, layer } from "@effect/vitest"
import { IsolatedPostgres } from "@resale/store/testing/IsolatedPostgres.ts"
import { MAX_PENDING_TESTS_PER_ENDPOINT } from "@resale/core/webhooks/Webhook.ts"
import { Effect } from "effect"
import { DatabasePing } from "../src/server/HttpApp.ts"
import { call, signIn } from "./Client.ts"
import { makeTestServer, TestServer } from "./TestServer.ts"

const World = makeTestServer(IsolatedPostgres.layerStore, { sandbox: true }, DatabasePing.layer as never)

layer(World, { timeout: "60 seconds", excludeTestServices: true })("webhook limits", (it) => {
  const account = (telegramId: number, name: string) =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const cookie = yield* signIn(url, telegramId, name)
      const key = (yield* call(url, "/v2/api-key/rotate", { method: "POST", cookie })).json.api_key as string
      return { cookie, headers: { "x-api-key": key } }
    })

  it.effect("test events: 3 may wait per endpoint, the 4th and later answer 429 with Retry-After", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const { headers } = yield* account(98001, "flood")
      const hook = yield* call(url, "/v2/api/webhooks", { json: { url: "https://hooks.example.com/in" }, headers })
      const other = yield* call(url, "/v2/api/webhooks", { json: { url: "https://hooks.example.com/b" }, headers })
      const answers = []
      for (let i = 0; i < 10; i++)
        answers.push(yield* call(url, `/v2/api/webhooks/${hook.json.id}/test`, { method: "POST", headers }))
      assert.deepStrictEqual(
        answers.map((a) => a.status),
        [...Array(MAX_PENDING_TESTS_PER_ENDPOINT).fill(200), ...Array(10 - MAX_PENDING_TESTS_PER_ENDPOINT).fill(429)]
      )
      const refused = answers[MAX_PENDING_TESTS_PER_ENDPOINT]!
      assert.strictEqual(refused.json.code, "webhook_tests_pending")
      assert.isString(refused.json.detail)
      assert.strictEqual(refused.json.params.limit, MAX_PENDING_TESTS_PER_ENDPOINT)
      const retryAfter = Number(refused.headers["retry-after"])
      assert.isTrue(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 600, String(retryAfter))
      // the cap is per endpoint: another endpoint of the account still takes a test
      const second = yield* call(url, `/v2/api/webhooks/${other.json.id}/test`, { method: "POST", headers })
      assert.strictEqual(second.status, 200, second.text)
      const log = yield* call(url, `/v2/api/webhooks/${hook.json.id}/deliveries`, { headers })
      assert.strictEqual(log.json.deliveries.length, MAX_PENDING_TESTS_PER_ENDPOINT, "nothing more was queued")
    })
  )

  it.effect("https on another port than 443 is refused at registration", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const { headers } = yield* account(98002, "ports")
      for (const target of ["https://hooks.example.com:8443/in", "https://hooks.example.com:22/in"]) {
        const refused = yield* call(url, "/v2/api/webhooks", { json: { url: target }, headers })
        assert.deepStrictEqual([refused.status, refused.json.code], [400, "webhook_url_refused"], target)
      }
      const ok = yield* call(url, "/v2/api/webhooks", { json: { url: "https://hooks.example.com:443/in" }, headers })
      assert.strictEqual(ok.status, 200, ok.text)
    })
  )
})
