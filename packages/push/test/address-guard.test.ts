/**
 * Web push never reaches a private address: the addresses a push connection uses are checked when it
 * connects (the socket's lookup), so a push host resolving to loopback, a private network or the cloud
 * metadata service is refused before any byte is sent. A loopback server counts what reaches it.
 */
import { assert, describe, it } from "@effect/vitest"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { Agent, request } from "undici"
import { isPublicAddress, publicOnlyLookup, REFUSED_CODE } from "../src/AddressGuard.ts"

describe("push address guard", () => {
  it("refuses loopback, private, link-local, CGNAT, metadata and reserved ranges, IPv4 and IPv6 (mapped too)", () => {
    for (const address of [
      "127.0.0.1",
      "127.255.0.9",
      "10.1.2.3",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "100.127.255.254",
      "0.0.0.0",
      "224.0.0.1",
      "255.255.255.255",
      "198.18.0.1",
      "::",
      "::1",
      "fe80::1",
      "fc00::1",
      "fd00:ec2::254",
      "ff02::1",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "::ffff:169.254.169.254",
      "::ffff:10.0.0.1",
      "64:ff9b::a9fe:a9fe",
      "2001:db8::1",
      "2002:7f00:1::",
      "not an address",
      ""
    ]) {
      assert.isFalse(isPublicAddress(address), address)
    }
    for (const address of [
      "142.250.74.10",
      "8.8.8.8",
      "100.128.0.1",
      "172.32.0.1",
      "2a00:1450:4001:80b::200a",
      "::ffff:8.8.8.8"
    ]) {
      assert.isTrue(isPublicAddress(address), address)
    }
  })

  it("a request to a name that resolves to loopback never reaches the server", async () => {
    let reached = 0
    const server = createServer((_req, res) => {
      reached++
      res.end("ok")
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const { port } = server.address() as AddressInfo
    const guarded = new Agent({ connect: { lookup: publicOnlyLookup } })
    try {
      const error = await request(`http://localhost:${port}/v2/admin`, {
        method: "POST",
        dispatcher: guarded,
        body: "{}"
      }).then(
        () => undefined,
        (e: unknown) => e
      )
      const codes: Array<unknown> = []
      for (let e = error as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e)
        codes.push(e.code)
      assert.include(codes, REFUSED_CODE)
      assert.strictEqual(reached, 0)
      // The same request without the guard does arrive: the test would notice a guard that does nothing.
      const open = await request(`http://localhost:${port}/v2/admin`, { method: "POST", body: "{}" })
      await open.body.dump()
      assert.strictEqual(reached, 1)
    } finally {
      await guarded.close()
      await new Promise((resolve) => server.close(resolve))
    }
  })
})
