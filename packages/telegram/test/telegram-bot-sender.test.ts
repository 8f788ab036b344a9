/**
 * The Bot API sender against a loopback server speaking the Bot API's wire format, through the
 * product's outbound HTTP client (effect's HttpClient, one retry policy): transient answers are
 * retried within the call (Retry-After honoured), final answers are classified, a proxy's HTML page
 * is judged by its status, and no failure carries the token.
 */
import { assert, describe, it } from "@effect/vitest"
import { NotifierError } from "@resale/core/ports/Notifier.ts"
import { Effect, Layer, Redacted } from "effect"
import { HttpClient } from "effect/http"
import { NodeHttpClient } from "@effect/platform-node"
import { DEFAULT_POLICY, withRetryPolicy } from "@resale/outbound/RetryPolicy.ts"
import { createServer, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { makeTelegramBotSender } from "../src/TelegramBotSender.ts"

const TOKEN = "777:loopback-secret-token"

type Answer = (res: ServerResponse) => void
const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Answer =>
  (res) => {
    res.writeHead(status, { "content-type": "application/json", ...headers })
    res.end(JSON.stringify(body))
  }

/** A Bot API that answers each call with the next scripted answer, and records what it was sent. */
const botApi = (answers: Array<Answer>) =>
  Effect.acquireRelease(
    Effect.promise(
      () =>
        new Promise<{
          readonly server: Server
          readonly url: string
          readonly calls: Array<{ path: string; body: unknown }>
        }>((resolve) => {
          const calls: Array<{ path: string; body: unknown }> = []
          const server = createServer((req, res) => {
            let text = ""
            req.on("data", (chunk) => (text += chunk))
            req.on("end", () => {
              calls.push({ path: req.url ?? "", body: JSON.parse(text) })
              ;(answers.shift() ?? json(200, { ok: true, result: {} }))(res)
            })
          })
          server.listen(0, "127.0.0.1", () =>
            resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls })
          )
        })
    ),
    ({ server }) => Effect.promise(() => new Promise<void>((done) => server.close(() => done())))
  )

// The product's one policy with a short first wait: two retries of transient failures.
const Client = Layer.effect(
  HttpClient.HttpClient,
  Effect.map(Effect.service(HttpClient.HttpClient), withRetryPolicy({ ...DEFAULT_POLICY, firstDelay: "10 millis" }))
).pipe(Layer.provide(NodeHttpClient.layerUndici))

const send = (url: string, chatId: number) =>
  Effect.flatMap(makeTelegramBotSender({ apiUrl: url, token: Redacted.make(TOKEN) }), (sender) =>
    sender(chatId, "Top-up credited\n50 000 UZS")
  ).pipe(Effect.provide(Client))

describe("TelegramBotSender", () => {
  it.live("sendMessage with the token in the path; a 429 with Retry-After and a 502 page are retried in the call", () =>
    Effect.gen(function* () {
      const api = yield* botApi([
        json(
          429,
          {
            ok: false,
            error_code: 429,
            description: "Too Many Requests: retry after 1",
            parameters: { retry_after: 1 }
          },
          { "retry-after": "1" }
        ),
        (res) => {
          res.writeHead(502, { "content-type": "text/html" })
          res.end("<html>Bad Gateway</html>")
        }
      ])
      yield* send(api.url, 42)
      assert.strictEqual(api.calls.length, 3)
      assert.strictEqual(api.calls[2]!.path, `/bot${TOKEN}/sendMessage`)
      assert.deepStrictEqual(api.calls[2]!.body, {
        chat_id: 42,
        text: "Top-up credited\n50 000 UZS",
        link_preview_options: { is_disabled: true }
      })
    }).pipe(Effect.scoped)
  )

  it.live(
    "final answers: blocked -> Gone, chat not found -> Gone, bad request -> Rejected, 5xx past the retries -> Unavailable",
    () =>
      Effect.gen(function* () {
        const failed = (answers: Array<Answer>) =>
          Effect.gen(function* () {
            const api = yield* botApi(answers)
            const error = yield* Effect.flip(send(api.url, 7))
            assert.instanceOf(error, NotifierError)
            assert.notInclude(error.message, TOKEN)
            return [error.reason, error.message] as const
          }).pipe(Effect.scoped)
        assert.deepStrictEqual(
          yield* failed([
            json(403, { ok: false, error_code: 403, description: "Forbidden: bot was blocked by the user" })
          ]),
          ["Gone", "Bot API answered 403: Forbidden: bot was blocked by the user"]
        )
        assert.deepStrictEqual(
          (yield* failed([json(400, { ok: false, error_code: 400, description: "Bad Request: chat not found" })]))[0],
          "Gone"
        )
        assert.deepStrictEqual(
          yield* failed([json(400, { ok: false, error_code: 400, description: "Bad Request: message is too long" })]),
          ["Rejected", "Bot API answered 400: Bad Request: message is too long"]
        )
        const down = (res: ServerResponse) => {
          res.writeHead(503, { "content-type": "text/html" })
          res.end("<html>down</html>")
        }
        assert.deepStrictEqual(yield* failed([down, down, down]), ["Unavailable", "Bot API answered 503"])
      })
  )

  it.live("no answer at all (nothing listens) -> Unavailable without the URL", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(send("http://127.0.0.1:9", 7))
      assert.deepStrictEqual([error.reason, error.message], ["Unavailable", "Bot API did not answer"])
    })
  )
})
