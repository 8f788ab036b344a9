/**
 * Webhook limits over real HTTP and PostgreSQL: a flood of test events stops at the per-endpoint cap
 * with 429, `Retry-After` and a stable code; rotating the API key removes the account's webhook
 * endpoints unless the owner asks to keep them; the signed-in owner lists and deletes them.
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
  it.effect("a loopback target on a sandbox without the setting is refused naming WEBHOOKS_ALLOW_LOOPBACK", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const { headers } = yield* account(98005, "local")
      const refused = yield* call(url, "/v2/api/webhooks", { json: { url: "http://127.0.0.1:9000/in" }, headers })
      assert.deepStrictEqual(
        [refused.status, refused.json.code, refused.json.params],
        [400, "webhook_url_refused", { field: "url", reason: "loopback_needs_sandbox_setting" }]
      )
      assert.include(
        refused.json.detail,
        "loopback targets are allowed only on a sandbox server with WEBHOOKS_ALLOW_LOOPBACK=true"
      )
    })
  )
  it.effect("rotating the key removes its webhooks by default, keeps them when the form field asks", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const first = yield* account(98003, "rotor")
      const register = (headers: Record<string, string>, path: string) =>
        call(url, "/v2/api/webhooks", { json: { url: `https://hooks.example.com/${path}` }, headers })
      yield* register(first.headers, "a")
      yield* register(first.headers, "b")
      const kept = yield* call(url, "/v2/api-key/rotate", { form: { keep_webhooks: "true" }, cookie: first.cookie })
      assert.strictEqual(kept.status, 200, kept.text)
      assert.strictEqual(kept.json.webhooks_removed, 0)
      const keptHeaders = { "x-api-key": kept.json.api_key as string }
      assert.strictEqual((yield* call(url, "/v2/api/webhooks", { headers: keptHeaders })).json.webhooks.length, 2)
      assert.strictEqual((yield* call(url, "/v2/api/webhooks", { headers: first.headers })).status, 401, "old key")

      const removed = yield* call(url, "/v2/api-key/rotate", { method: "POST", cookie: first.cookie })
      assert.deepStrictEqual([removed.status, removed.json.webhooks_removed], [200, 2])
      const fresh = { "x-api-key": removed.json.api_key as string }
      assert.deepStrictEqual((yield* call(url, "/v2/api/webhooks", { headers: fresh })).json.webhooks, [])
      const owned = yield* call(url, "/v2/api-key/webhooks", { cookie: first.cookie })
      assert.deepStrictEqual(owned.json.webhooks, [])

      // an explicit false removes; a JSON body is not the form, so it gets the safe default too
      yield* register(fresh, "c")
      const formRemoved = yield* call(url, "/v2/api-key/rotate", {
        form: { keep_webhooks: "false" },
        cookie: first.cookie
      })
      assert.deepStrictEqual([formRemoved.status, formRemoved.json.webhooks_removed], [200, 1], formRemoved.text)
      yield* register({ "x-api-key": formRemoved.json.api_key as string }, "d")
      const json = yield* call(url, "/v2/api-key/rotate", { json: { keep_webhooks: true }, cookie: first.cookie })
      assert.deepStrictEqual([json.status, json.json.webhooks_removed], [200, 1], json.text)
    })
  )

  it.effect("the signed-in owner lists the key's webhooks and deletes one; another account's is not found", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const owner = yield* account(98004, "owner")
      const stranger = yield* account(98005, "stranger")
      const made = yield* call(url, "/v2/api/webhooks", {
        json: { url: "https://hooks.example.com/own", events: ["topup.credited"] },
        headers: owner.headers
      })
      const listed = yield* call(url, "/v2/api-key/webhooks", { cookie: owner.cookie })
      assert.deepStrictEqual(
        listed.json.webhooks.map((w: Record<string, unknown>) => [w["id"], w["url"], w["events"], "secret" in w]),
        [[made.json.id, "https://hooks.example.com/own", ["topup.credited"], false]]
      )
      const path = `/v2/api-key/webhooks/${made.json.id}/delete`
      const foreign = yield* call(url, path, { method: "POST", cookie: stranger.cookie })
      assert.deepStrictEqual([foreign.status, foreign.json.code], [404, "webhook_not_found"])
      const deleted = yield* call(url, path, { method: "POST", cookie: owner.cookie })
      assert.deepStrictEqual(deleted.json, { id: made.json.id, deleted: true })
      assert.deepStrictEqual((yield* call(url, "/v2/api-key/webhooks", { cookie: owner.cookie })).json.webhooks, [])
      assert.strictEqual((yield* call(url, "/v2/api-key/webhooks", {})).status, 401)
    })
  )
})
