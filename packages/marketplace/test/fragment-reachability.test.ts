/**
 * Reaching Fragment: every call can leave through FRAGMENT_PROXY (a loopback CONNECT proxy here),
 * and an HTTP 403 from an anti-bot edge is `Blocked` with its own log line, never an expired session;
 * Fragment's own "Access denied" stays a session problem.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Logger, Redacted } from "effect"
import { createServer, type Server } from "node:http"
import { connect, type AddressInfo } from "node:net"
import { makeFragmentMarketplace } from "../src/FragmentMarketplace.ts"
import { FragmentSimulator } from "../src/simulator/FragmentSimulator.ts"
import { payer, simulated } from "./harness.ts"

/** A forward proxy that tunnels CONNECT requests and counts them. */
const loopbackProxy = Effect.acquireRelease(
  Effect.promise(
    () =>
      new Promise<{ readonly url: string; readonly tunnels: Array<string>; readonly server: Server }>((resolve) => {
        const tunnels: Array<string> = []
        const server = createServer((_req, res) => res.writeHead(405).end())
        server.on("connect", (req, socket, head) => {
          tunnels.push(req.url ?? "")
          const [host, port] = (req.url ?? "").split(":")
          const upstream = connect(Number(port), host, () => {
            socket.write("HTTP/1.1 200 Connection Established\r\n\r\n")
            upstream.write(head)
            upstream.pipe(socket)
            socket.pipe(upstream)
          })
          upstream.on("error", () => socket.destroy())
          socket.on("error", () => upstream.destroy())
        })
        server.listen(0, "127.0.0.1", () =>
          resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, tunnels, server })
        )
      })
  ),
  ({ server }) =>
    Effect.promise(
      () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections()
          server.close(() => resolve())
        })
    )
)

const captureWarnings = (lines: Array<string>) =>
  Logger.layer([
    Logger.make(({ message }) => {
      lines.push(Array.isArray(message) ? message.join(" ") : String(message))
    })
  ])

describe("reaching Fragment", () => {
  it.live("FRAGMENT_PROXY: pages and api calls all go through the proxy", () =>
    Effect.gen(function* () {
      const sim = yield* FragmentSimulator.scoped()
      const proxy = yield* loopbackProxy
      const market = yield* makeFragmentMarketplace(sim.fragmentOptions({ proxy: Redacted.make(proxy.url) }))
      const payment = yield* market.quoteStars({ username: "proxied_fan", quantity: 50, payer })
      assert.strictEqual(sim.control.invoice(payment.reqId)?.username, "proxied_fan")
      const target = new URL(sim.url).host
      assert.isAtLeast(proxy.tunnels.length, 1)
      assert.isTrue(
        proxy.tunnels.every((t) => t === target),
        proxy.tunnels.join(",")
      )
    })
  )

  it.live("an anti-bot HTTP 403 is Blocked with its own log line, on a page and on an api call", () =>
    Effect.gen(function* () {
      const lines: Array<string> = []
      const { sim, market } = yield* simulated()
      sim.control.set({ blocked: true })
      const onPage = yield* Effect.flip(market.quoteStars({ username: "blocked_fan", quantity: 50, payer })).pipe(
        Effect.provide(captureWarnings(lines))
      )
      assert.strictEqual(onPage.reason, "Blocked")
      assert.match(
        onPage.message,
        /blocked before the session was checked \(HTTP 403 from cloudflare\); not a session problem/
      )
      sim.control.set({ blocked: false })
      yield* market.lookupRecipient("stars", "warm_up") // the page's hash is known from here on
      sim.control.inject({ method: "initBuyStarsRequest", antiBot: true })
      const onApi = yield* Effect.flip(market.quoteStars({ username: "blocked_fan", quantity: 50, payer })).pipe(
        Effect.provide(captureWarnings(lines))
      )
      assert.strictEqual(onApi.reason, "Blocked")
      assert.deepStrictEqual(lines.filter((l) => l.includes("HTTP 403, not a session problem")).length, 2)
      // the session is free again: nothing was opened
      const ok = yield* market.quoteStars({ username: "after_block", quantity: 50, payer })
      assert.strictEqual(sim.control.invoice(ok.reqId)?.status, "linked")
    })
  )

  it.live("Fragment's own JSON error on a 403 keeps its meaning: Access denied is a session problem", () =>
    Effect.gen(function* () {
      const { sim, market } = yield* simulated()
      sim.control.inject({ method: "searchStarsRecipient", status: 403, body: '{"error":"Access denied"}' })
      const denied = yield* Effect.flip(market.quoteStars({ username: "denied_fan", quantity: 50, payer }))
      assert.strictEqual(denied.reason, "SessionExpired")
    })
  )
})
