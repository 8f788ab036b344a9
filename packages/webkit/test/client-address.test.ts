import { assert, describe, it } from "@effect/vitest"
import { Option } from "effect"
import { HttpServerRequest } from "effect/http"
import { clientAddress, limitKey, noTrustedProxies, trustedProxies } from "../src/ClientAddress.ts"

const request = (remote: string, forwarded?: string) =>
  HttpServerRequest.fromWeb(
    new Request("http://localhost/v2/", { headers: forwarded === undefined ? {} : { "x-forwarded-for": forwarded } })
  ).modify({ remoteAddress: Option.some(remote) })

describe("client address", () => {
  it("without trusted proxies the header is ignored", () => {
    assert.strictEqual(clientAddress(request("198.51.100.4", "1.2.3.4"), noTrustedProxies), "198.51.100.4")
  })

  it("behind trusted proxies: the rightmost hop that is not one of them; hops the client wrote are ignored", () => {
    const proxies = trustedProxies(["127.0.0.1", "10.0.0.0/8", "fd00::/8"])
    assert.strictEqual(clientAddress(request("127.0.0.1", "6.6.6.6, 203.0.113.9"), proxies), "203.0.113.9")
    assert.strictEqual(
      clientAddress(request("::ffff:127.0.0.1", "6.6.6.6, 203.0.113.9, 10.1.2.3"), proxies),
      "203.0.113.9"
    )
    assert.strictEqual(clientAddress(request("fd00::1", "2001:db8::5"), proxies), "2001:db8::5")
    // A socket that is not a proxy: its own address, whatever the header says.
    assert.strictEqual(clientAddress(request("203.0.113.50", "1.1.1.1"), proxies), "203.0.113.50")
    // Garbage at the right can only come from a broken chain: the last address seen stands.
    assert.strictEqual(clientAddress(request("127.0.0.1", "203.0.113.9, not-an-ip"), proxies), "127.0.0.1")
    // Only proxies: the leftmost of them.
    assert.strictEqual(clientAddress(request("127.0.0.1", "10.0.0.7"), proxies), "10.0.0.7")
  })

  it("refuses a malformed TRUSTED_PROXIES entry", () => {
    assert.throws(() => trustedProxies(["10.0.0.0/x"]))
    assert.throws(() => trustedProxies(["proxy.local"]))
  })

  it("limits count IPv6 by /64 and IPv4 by address", () => {
    assert.strictEqual(limitKey("2001:db8:1:2::1"), "2001:db8:1:2::/64")
    assert.strictEqual(limitKey("2001:0db8:0001:0002:ffff:0:0:99"), "2001:db8:1:2::/64")
    assert.strictEqual(limitKey("2001:db8::1"), "2001:db8:0:0::/64")
    assert.strictEqual(limitKey("::1"), "0:0:0:0::/64")
    assert.strictEqual(limitKey("203.0.113.9"), "203.0.113.9")
  })
})
