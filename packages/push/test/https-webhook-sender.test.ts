/**
 * The signed webhook sender against loopback receivers speaking plain HTTP/1.1: what goes on the
 * wire (Standard Webhooks headers, a signature checked from the spec, the exact UTF-8 body), what one
 * send retries (a connection dropped before any answer, once; nothing that answered, nor a receiver
 * too slow to answer: those are the outbox's to retry), that the answer's body is never waited for,
 * that redirects are not followed, and that private targets are refused.
 */
import { assert, describe, it } from "@effect/vitest"
import { WebhookSender } from "@resale/core/ports/WebhookSender.ts"
import { WebhookPolicy } from "@resale/core/webhooks/WebhookTargets.ts"
import { Effect, Fiber, Layer } from "effect"
import { TestClock } from "effect/testing"
import { createHmac, timingSafeEqual } from "node:crypto"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { HttpsWebhookSender } from "../src/HttpsWebhookSender.ts"

interface Received {
  readonly headers: http.IncomingHttpHeaders
  readonly body: string
}

type Handler = (res: http.ServerResponse, req: http.IncomingMessage) => void

/** A loopback receiver: request n is answered by handlers[n] (the last one repeats); every request is recorded. */
const receiver = (handlers: ReadonlyArray<Handler>) =>
  Effect.acquireRelease(
    Effect.promise(
      () =>
        new Promise<{ url: string; received: Array<Received>; arrived: Promise<void>; server: http.Server }>(
          (resolve) => {
            const received: Array<Received> = []
            let signal = () => {}
            const arrived = new Promise<void>((done) => (signal = done))
            const server = http.createServer((req, res) => {
              const chunks: Array<Buffer> = []
              req.on("data", (chunk: Buffer) => chunks.push(chunk))
              req.on("end", () => {
                received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") })
                signal()
                handlers[Math.min(received.length - 1, handlers.length - 1)]!(res, req)
              })
            })
            server.listen(0, "127.0.0.1", () =>
              resolve({
                url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
                received,
                arrived,
                server
              })
            )
          }
        )
    ),
    ({ server }) =>
      Effect.promise(
        () =>
          new Promise<void>((done) => {
            server.closeAllConnections()
            server.close(() => done())
          })
      )
  )

const status =
  (code: number, headers: Record<string, string> = {}): Handler =>
  (res) =>
    void res.writeHead(code, headers).end("ok")
const dropConnection: Handler = (_res, req) => void req.socket.destroy()

/** The receiver's side of Standard Webhooks, written from the spec, not from the sender's code. */
const verify = (secret: string, request: Received): boolean => {
  const id = String(request.headers["webhook-id"])
  const timestamp = String(request.headers["webhook-timestamp"])
  const expected = createHmac("sha256", Buffer.from(secret.slice("whsec_".length), "base64"))
    .update(`${id}.${timestamp}.${request.body}`)
    .digest()
  return String(request.headers["webhook-signature"])
    .split(" ")
    .some((part) => {
      const [version, signature] = part.split(",")
      const given = Buffer.from(signature ?? "", "base64")
      return version === "v1" && given.length === expected.length && timingSafeEqual(given, expected)
    })
}

const SECRET = `whsec_${Buffer.from("a webhook secret of 24 bytes").toString("base64")}`
const message = {
  id: "evt_01",
  timestamp: 1_767_000_000,
  body: JSON.stringify({ type: "order.completed", data: { recipient: "Тошкент ✓" } })
}

const Loopback = HttpsWebhookSender.pipe(Layer.provide(Layer.succeed(WebhookPolicy)({ allowLoopback: true })))
const Production = HttpsWebhookSender.pipe(Layer.provide(Layer.succeed(WebhookPolicy)({ allowLoopback: false })))

const send = (url: string) => WebhookSender.use((sender) => sender.send({ url, secret: SECRET }, message))

describe("HttpsWebhookSender (loopback receivers)", () => {
  it.live("posts the exact body, signed per Standard Webhooks, and answers the status", () =>
    Effect.gen(function* () {
      const hook = yield* receiver([status(204)])
      assert.strictEqual(yield* send(hook.url), 204)
      assert.strictEqual(hook.received.length, 1)
      const [request] = hook.received
      assert.strictEqual(request!.body, message.body)
      assert.strictEqual(request!.headers["content-type"], "application/json")
      assert.strictEqual(request!.headers["user-agent"], "resale-webhooks/1")
      assert.strictEqual(request!.headers["webhook-id"], "evt_01")
      assert.strictEqual(request!.headers["webhook-timestamp"], "1767000000")
      assert.isTrue(verify(SECRET, request!))
    }).pipe(Effect.scoped, Effect.provide(Loopback))
  )

  it.live("an answer is the attempt's outcome: 500, 302 (not followed) and a long 429 are sent once", () =>
    Effect.gen(function* () {
      for (const [code, headers] of [
        [500, {}],
        [302, { location: "/elsewhere" }],
        [429, { "retry-after": "60" }]
      ] as const) {
        const hook = yield* receiver([status(code, headers), status(200)])
        assert.strictEqual(yield* send(hook.url), code)
        assert.strictEqual(hook.received.length, 1, `${code}: one request, the outbox retries`)
      }
    }).pipe(Effect.scoped, Effect.provide(Loopback))
  )

  it.live("a connection dropped before any answer is tried again at once, with the same id and signature", () =>
    Effect.gen(function* () {
      const hook = yield* receiver([dropConnection, status(200)])
      assert.strictEqual(yield* send(hook.url), 200)
      assert.strictEqual(hook.received.length, 2)
      assert.deepStrictEqual(
        hook.received[1]!.headers["webhook-signature"],
        hook.received[0]!.headers["webhook-signature"]
      )
      assert.strictEqual(hook.received[1]!.headers["webhook-id"], "evt_01")
      const lost = yield* receiver([dropConnection])
      const error = yield* Effect.flip(send(lost.url))
      assert.strictEqual(error.reason, "Unreachable")
      assert.strictEqual(lost.received.length, 2, "tried twice, then the outbox's")
    }).pipe(Effect.scoped, Effect.provide(Loopback))
  )

  it.live("the answer's body is not waited for: an endless one still answers its status and is cut off", () =>
    Effect.gen(function* () {
      let closed = false
      const hook = yield* receiver([
        (res) => {
          res.writeHead(200, { "content-type": "text/plain" })
          const timer = setInterval(() => res.write("x".repeat(65_536)), 5)
          res.on("close", () => {
            closed = true
            clearInterval(timer)
          })
        }
      ])
      assert.strictEqual(yield* send(hook.url), 200)
      yield* Effect.promise(
        () =>
          new Promise<void>((done) => {
            const check = setInterval(() => closed && (clearInterval(check), done()), 5)
          })
      )
      assert.isTrue(closed)
    }).pipe(Effect.scoped, Effect.provide(Loopback))
  )

  it.effect("a receiver that never answers: Timeout after the timeout, not tried again", () =>
    Effect.gen(function* () {
      const hook = yield* receiver([() => {}])
      const fiber = yield* Effect.forkChild(Effect.flip(send(hook.url)))
      yield* Effect.promise(() => hook.arrived)
      yield* TestClock.adjust("11 seconds")
      const error = yield* Fiber.join(fiber)
      assert.strictEqual(error.reason, "Timeout")
      assert.include(error.message, "no answer within")
      assert.strictEqual(hook.received.length, 1)
    }).pipe(Effect.scoped, Effect.provide(Loopback))
  )

  it.live(
    "outside the sandbox's loopback setting: plain http, loopback targets and https on another port than 443 are refused",
    () =>
      Effect.gen(function* () {
        const hook = yield* receiver([status(200)])
        const port = new URL(hook.url).port
        for (const url of [
          hook.url,
          `https://127.0.0.1:${port}/hooks`,
          `https://[::1]:${port}/hooks`,
          `https://localhost:${port}/hooks`,
          // a public name on another port than 443: refused before any lookup
          "https://example.com:8443/hooks",
          "https://93.184.215.14:444/hooks"
        ]) {
          const error = yield* Effect.flip(send(url))
          assert.strictEqual(error.reason, "Refused", url)
        }
        assert.strictEqual(hook.received.length, 0)
      }).pipe(Effect.scoped, Effect.provide(Production))
  )
})
