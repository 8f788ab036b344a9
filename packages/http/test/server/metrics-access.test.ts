import { assert, describe, it } from "@effect/vitest"
import { Option, Redacted as R } from "effect"
import { HttpServerRequest } from "effect/http"
import { noTrustedProxies, trustedProxies } from "@resale/webkit/ClientAddress.ts"
import { isLocalCaller, metricsServed, opsPaths } from "../../src/server/MetricsAccess.ts"

const request = (remote: string, forwarded?: string) =>
  HttpServerRequest.fromWeb(
    new Request("http://localhost/metrics", {
      headers: forwarded === undefined ? {} : { "x-forwarded-for": forwarded }
    })
  ).modify({ remoteAddress: Option.some(remote) })

describe("who is a local caller of /metrics", () => {
  it("a loopback socket no proxy relayed", () => {
    assert.isTrue(isLocalCaller(request("127.0.0.1"), noTrustedProxies))
    assert.isTrue(isLocalCaller(request("::1"), noTrustedProxies))
    assert.isTrue(isLocalCaller(request("::ffff:127.0.0.1"), trustedProxies(["10.0.0.0/8"])))
  })

  it("X-Forwarded-For from an untrusted hop cannot make a remote caller local", () => {
    for (const trusted of [noTrustedProxies, trustedProxies(["10.0.0.0/8"])]) {
      assert.isFalse(isLocalCaller(request("198.51.100.4", "127.0.0.1"), trusted))
      assert.isFalse(isLocalCaller(request("198.51.100.4", "::1"), trusted))
      assert.isFalse(isLocalCaller(request("198.51.100.4"), trusted))
    }
  })

  it("a trusted proxy's client is not local, whatever it forwards or if it forwards nothing", () => {
    const trusted = trustedProxies(["127.0.0.1"])
    assert.isFalse(isLocalCaller(request("127.0.0.1", "203.0.113.9"), trusted))
    assert.isFalse(isLocalCaller(request("127.0.0.1", "127.0.0.1"), trusted))
    assert.isFalse(isLocalCaller(request("127.0.0.1"), trusted))
  })

  it("an unlisted proxy on this machine (it adds X-Forwarded-For) relays remote callers", () => {
    assert.isFalse(isLocalCaller(request("127.0.0.1", "203.0.113.9"), noTrustedProxies))
  })
})

describe("whether /metrics is served", () => {
  const token = Option.some(R.make("metrics-token"))
  it("outside sandbox only once METRICS_TOKEN is set; the operator token plays no part", () => {
    assert.isFalse(metricsServed({ sandbox: false, metricsToken: Option.none(), trustedProxies: [] }))
    assert.isTrue(metricsServed({ sandbox: false, metricsToken: token, trustedProxies: [] }))
    assert.isTrue(metricsServed({ sandbox: true, metricsToken: Option.none(), trustedProxies: [] }))
    assert.deepStrictEqual(opsPaths({ sandbox: false, metricsToken: Option.none(), trustedProxies: [] }), [
      "/livez",
      "/readyz"
    ])
  })
})
