import { assert, layer } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import { call, TEST_ADMIN_TOKEN } from "./Client.ts"
import { opsTestServer } from "./OpsServer.ts"
import { TestServer } from "./TestServer.ts"

/**
 * Security round three, finding 4: `/metrics` took the operator token when METRICS_TOKEN was unset,
 * never throttled wrong tokens, and judged "local" from the raw socket. Behind a trusted proxy
 * (127.0.0.1 here) each client is its rightmost untrusted X-Forwarded-For hop, so one socket plays
 * several clients.
 */
const METRICS_TOKEN = "metrics-test-token-4f1c9a7e2b"
const metrics = (url: string, client: string | undefined, token?: string) =>
  call(url, "/metrics", {
    headers: {
      ...(client === undefined ? {} : { "x-forwarded-for": client }),
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` })
    }
  })

const production = { sandbox: false, trustedProxies: ["127.0.0.1"] }

layer(opsTestServer({ ...production, metricsToken: Option.some(Redacted.make(METRICS_TOKEN)) }), {
  timeout: "60 seconds",
  excludeTestServices: true
})("/metrics with METRICS_TOKEN (production)", (it) => {
  it.effect("its own token reads; the operator token never does; no token, no read", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      assert.strictEqual((yield* metrics(url, "203.0.113.10", METRICS_TOKEN)).status, 200)
      const admin = yield* metrics(url, "203.0.113.10", TEST_ADMIN_TOKEN)
      assert.strictEqual(admin.status, 401, admin.text)
      assert.strictEqual(admin.json.code, "metrics_token_invalid")
      assert.notInclude(admin.text, TEST_ADMIN_TOKEN)
      assert.strictEqual((yield* metrics(url, "203.0.113.10")).json.code, "metrics_token_missing")
      // The proxy itself (loopback, nothing forwarded) is no local caller outside sandbox either.
      assert.strictEqual((yield* metrics(url, undefined)).status, 401)
    })
  )

  it.effect("8 wrong tokens: 401 for the free tries, then 429 + Retry-After, even for the right token", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const statuses: Array<number> = []
      let retryAfter: unknown
      for (let i = 0; i < 8; i++) {
        const wrong = yield* metrics(url, "203.0.113.11", `guess-${i}`)
        statuses.push(wrong.status)
        if (wrong.status === 429) retryAfter ??= wrong.headers["retry-after"]
      }
      assert.deepStrictEqual(statuses, [401, 401, 401, 401, 401, 429, 429, 429])
      assert.isAtLeast(Number(retryAfter), 1)
      assert.isAtMost(Number(retryAfter), 60)
      // While blocked the token is not even compared; a hop the client wrote on the left changes nothing.
      assert.strictEqual((yield* metrics(url, "203.0.113.11", METRICS_TOKEN)).status, 429)
      assert.strictEqual((yield* metrics(url, "198.51.100.7, 203.0.113.11", METRICS_TOKEN)).status, 429)
      // Another address is not held up, and the operator token's budget is another one.
      assert.strictEqual((yield* metrics(url, "203.0.113.12", METRICS_TOKEN)).status, 200)
      const operator = yield* call(url, "/v2/api/admin/payments/incoming", {
        json: { amount_uzs: 1000, card_last4: "1234", external_id: "metrics-guard" },
        headers: { "x-forwarded-for": "203.0.113.11", "x-admin-token": TEST_ADMIN_TOKEN }
      })
      assert.notStrictEqual(operator.status, 429)
    })
  )
})

layer(opsTestServer({ sandbox: true, trustedProxies: ["127.0.0.1"] }), {
  timeout: "60 seconds",
  excludeTestServices: true
})("/metrics in sandbox behind a trusted proxy", (it) => {
  it.effect("a trusted proxy's forwarded client is not local, nor is the proxy itself", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      assert.strictEqual((yield* metrics(url, "203.0.113.20")).status, 401)
      assert.strictEqual((yield* metrics(url, "127.0.0.1")).status, 401)
      assert.strictEqual((yield* metrics(url, undefined)).status, 401)
      assert.strictEqual((yield* metrics(url, "203.0.113.20", TEST_ADMIN_TOKEN)).status, 401)
    })
  )
})

layer(opsTestServer({ sandbox: true }), { timeout: "60 seconds", excludeTestServices: true })(
  "/metrics in sandbox without trusted proxies",
  (it) => {
    it.effect("a loopback caller reads; X-Forwarded-For (an unlisted proxy) makes it remote", () =>
      Effect.gen(function* () {
        const { url } = yield* TestServer
        assert.strictEqual((yield* metrics(url, undefined)).status, 200)
        assert.strictEqual((yield* metrics(url, "203.0.113.30")).status, 401)
        assert.strictEqual((yield* metrics(url, "203.0.113.30", TEST_ADMIN_TOKEN)).status, 401)
      })
    )
  }
)

layer(opsTestServer({ ...production, metricsToken: Option.none() }), {
  timeout: "60 seconds",
  excludeTestServices: true
})("/metrics without METRICS_TOKEN (production)", (it) => {
  it.effect("is off: 404 for everyone, the operator token and loopback included; the probes still answer", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      assert.strictEqual((yield* metrics(url, undefined)).status, 404)
      assert.strictEqual((yield* metrics(url, "203.0.113.40", TEST_ADMIN_TOKEN)).status, 404)
      assert.strictEqual((yield* call(url, "/livez")).status, 200)
    })
  )
})
