/**
 * Push subscriptions are push services: https on a known push service's host, keys that are a P-256
 * point and a 16-byte secret, at most N per account, and an endpoint never changes owner.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Result } from "effect"
import { TestClock } from "effect/testing"
import { AccountCaps, DEFAULT_ACCOUNT_CAPS } from "../src/caps/CapSettings.ts"
import { Notifications } from "../src/outbox/Notifications.ts"
import {
  checkEndpoint,
  checkKeys,
  DEFAULT_PUSH_HOSTS,
  hostAllowed,
  isP256Point,
  SANDBOX_INBOX_PATH,
  sandboxInboxOf
} from "../src/push/PushEndpointRules.ts"
import { signUp } from "../src/testing/fixtures.ts"
import { layerMemory } from "../src/testing/MemoryPorts.ts"

const P256 = "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM"
const AUTH = "tBHItJI5svbpez7KI4CCXg"
const policy = { allowedHosts: DEFAULT_PUSH_HOSTS }
const refused = (endpoint: string) => Result.isFailure(checkEndpoint(endpoint, policy))

describe("push endpoint rules", () => {
  it("only https on the push services' hosts, default port, no credentials", () => {
    for (const ok of [
      "https://fcm.googleapis.com/fcm/send/x",
      "https://updates.push.services.mozilla.com/wpush/v2/x",
      "https://web.push.apple.com/QH",
      "https://wns2-by3p.notify.windows.com/w/?token=1",
      "https://fcm.googleapis.com:443/x"
    ]) {
      assert.isFalse(refused(ok), ok)
    }
    for (const bad of [
      "http://fcm.googleapis.com/x",
      "https://127.0.0.1/x",
      "https://169.254.169.254/latest/meta-data",
      "https://[::1]/x",
      "https://localhost/x",
      "https://evil.example/?fcm.googleapis.com",
      "https://fcm.googleapis.com.evil.example/x",
      "https://push.apple.com/x",
      "https://fcm.googleapis.com:8443/x",
      "https://user:pw@fcm.googleapis.com/x",
      "javascript:alert(1)",
      "file:///etc/passwd",
      `https://fcm.googleapis.com/${"a".repeat(1100)}`
    ]) {
      assert.isTrue(refused(bad), bad)
    }
    assert.isTrue(hostAllowed("FCM.googleapis.com.", ["fcm.googleapis.com"]))
    assert.isFalse(hostAllowed("notify.windows.com", ["*.notify.windows.com"]))
  })

  it("keys: an uncompressed P-256 point on the curve and a 16-byte auth secret", () => {
    assert.isTrue(Result.isSuccess(checkKeys(P256, AUTH)))
    const point = new Uint8Array(Buffer.from(P256, "base64url"))
    assert.isTrue(isP256Point(point))
    point[64] = point[64]! ^ 1
    assert.isFalse(isP256Point(point))
    assert.isTrue(Result.isFailure(checkKeys(Buffer.from(point).toString("base64url"), AUTH)))
    assert.isTrue(Result.isFailure(checkKeys("A".repeat(20_000_000), AUTH)))
    assert.isTrue(Result.isFailure(checkKeys(P256, "c2VjcmV0")))
    assert.isTrue(Result.isFailure(checkKeys(P256, "x".repeat(1000))))
  })

  it.effect("at most N subscriptions per account (the oldest go); an endpoint never moves to another account", () =>
    Effect.gen(function* () {
      const notifications = yield* Notifications
      const [alice, mallory] = yield* Effect.all([signUp(), signUp()])
      const sub = (n: number) => ({
        endpoint: `https://fcm.googleapis.com/fcm/send/${n}`,
        keys: { p256dh: P256, auth: AUTH }
      })
      for (let n = 1; n <= 5; n++) {
        yield* notifications.subscribePush(alice.id, sub(n))
        yield* TestClock.adjust("1 minute")
      }
      assert.deepStrictEqual(
        (yield* notifications.pushSubscriptions(alice.id)).map((s) => s.endpoint.split("/").pop()).sort(),
        ["3", "4", "5"]
      )
      const stolen = yield* Effect.flip(notifications.subscribePush(mallory.id, sub(5)))
      assert.strictEqual(stolen.reason, "OwnedByAnother")
      assert.strictEqual((yield* notifications.pushSubscriptions(mallory.id)).length, 0)
      assert.strictEqual((yield* notifications.pushSubscriptions(alice.id)).length, 3)
      const ssrf = yield* Effect.flip(
        notifications.subscribePush(mallory.id, { ...sub(6), endpoint: "http://127.0.0.1:8000/v2/admin" })
      )
      assert.strictEqual(ssrf.reason, "EndpointRefused")
    }).pipe(
      Effect.provide(layerMemory),
      Effect.provideService(AccountCaps, { ...DEFAULT_ACCOUNT_CAPS, pushSubscriptions: 3 })
    )
  )

  it("the sandbox push receiver: exactly its path on this server's own host names, and only when the policy names it", () => {
    const sandbox = { allowedHosts: DEFAULT_PUSH_HOSTS, sandboxInbox: sandboxInboxOf("http://shop.example:8000") }
    const id = "AbCdEfGhIjKlMnOpQrStUvWx"
    const ok = (endpoint: string) => Result.isSuccess(checkEndpoint(endpoint, sandbox))
    assert.isTrue(ok(`http://127.0.0.1:8000${SANDBOX_INBOX_PATH}${id}`))
    assert.isTrue(ok(`http://localhost:41234${SANDBOX_INBOX_PATH}${id}`))
    assert.isTrue(ok(`http://shop.example:8000${SANDBOX_INBOX_PATH}${id}`))
    assert.isFalse(ok(`http://127.0.0.1:8000/v2/admin`), "another path of the server")
    assert.isFalse(ok(`http://127.0.0.1:8000${SANDBOX_INBOX_PATH}${id}?x=1`))
    assert.isFalse(ok(`http://127.0.0.1:8000${SANDBOX_INBOX_PATH}../admin`))
    assert.isFalse(ok(`http://10.0.0.5${SANDBOX_INBOX_PATH}${id}`), "another host")
    assert.isFalse(ok(`http://user:pw@127.0.0.1${SANDBOX_INBOX_PATH}${id}`))
    // Production's policy has no receiver: the same endpoint is refused.
    assert.isTrue(refused(`http://127.0.0.1:8000${SANDBOX_INBOX_PATH}${id}`))
  })
})
