import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { call, TEST_ADMIN_TOKEN } from "./Client.ts"
import { pgTestServer, TestServer } from "./TestServer.ts"

/**
 * Guessing the operator token: behind a trusted proxy (127.0.0.1 here), each client is its rightmost
 * untrusted X-Forwarded-For hop, so the test plays several clients from one socket.
 */
const from = (client: string, extra: Record<string, string> = {}) => ({ "x-forwarded-for": client, ...extra })
const apiCall = (url: string, client: string, token: string) =>
  call(url, "/v2/api/admin/payments/incoming", {
    json: { amount_uzs: 1000, card_last4: "1234", external_id: `ext-${client}-${token.length}` },
    headers: from(client, { "x-admin-token": token })
  })

layer(pgTestServer({ trustedProxies: ["127.0.0.1"] }), { timeout: "60 seconds", excludeTestServices: true })(
  "operator token",
  (it) => {
    it.effect("X-Admin-Token: after 5 wrong tokens the address gets 429 + Retry-After, even with the right token", () =>
      Effect.gen(function* () {
        const { url } = yield* TestServer
        for (let i = 0; i < 5; i++) {
          const wrong = yield* apiCall(url, "203.0.113.5", `guess-${i}`)
          assert.strictEqual(wrong.status, 401, wrong.text)
        }
        const blocked = yield* apiCall(url, "203.0.113.5", "guess-5")
        assert.strictEqual(blocked.status, 429, blocked.text)
        const retryAfter = Number(blocked.headers["retry-after"])
        assert.isAtLeast(retryAfter, 1)
        assert.isAtMost(retryAfter, 60)
        // While blocked, not even the right token is looked at.
        assert.strictEqual((yield* apiCall(url, "203.0.113.5", TEST_ADMIN_TOKEN)).status, 429)
        // A hop the client wrote itself on the left changes nothing.
        const spoofed = yield* call(url, "/v2/api/admin/payments/incoming", {
          json: { amount_uzs: 1000 },
          headers: from("198.51.100.77, 203.0.113.5", { "x-admin-token": TEST_ADMIN_TOKEN })
        })
        assert.strictEqual(spoofed.status, 429)
        // Another address (the operator's own) is not affected.
        const other = yield* apiCall(url, "203.0.113.6", TEST_ADMIN_TOKEN)
        assert.notStrictEqual(other.status, 429)
        assert.notStrictEqual(other.status, 401)
      })
    )

    it.effect("the admin sign-in form counts the same way; a right token clears the address", () =>
      Effect.gen(function* () {
        const { url } = yield* TestServer
        const form = (client: string, token: string) =>
          call(url, "/v2/admin/login", { form: { token }, headers: from(client) })
        for (let i = 0; i < 4; i++) assert.strictEqual((yield* form("203.0.113.20", `nope-${i}`)).status, 401)
        // A right token before the block clears the count: five more typos are free again.
        assert.strictEqual((yield* form("203.0.113.20", TEST_ADMIN_TOKEN)).status, 303)
        for (let i = 0; i < 5; i++) assert.strictEqual((yield* form("203.0.113.20", `nope-${i}`)).status, 401)
        const blocked = yield* form("203.0.113.20", TEST_ADMIN_TOKEN)
        assert.strictEqual(blocked.status, 429)
        assert.isString(blocked.headers["retry-after"])
        assert.match(blocked.json.detail, /Too many wrong operator tokens/)
      })
    )

    it.effect("IPv6 clients count by their /64", () =>
      Effect.gen(function* () {
        const { url } = yield* TestServer
        for (let i = 0; i < 5; i++)
          assert.strictEqual((yield* apiCall(url, `2001:db8:1:2::${i + 1}`, `g${i}`)).status, 401)
        assert.strictEqual((yield* apiCall(url, "2001:db8:1:2:ffff::99", "g9")).status, 429)
        assert.strictEqual((yield* apiCall(url, "2001:db8:1:3::1", "g10")).status, 401)
      })
    )
  }
)
