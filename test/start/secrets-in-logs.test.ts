/**
 * What a reader of the logs or of the traces learns from the real entry: no secret of the
 * configuration. The bot webhook's path secret is logged and traced as the route pattern (answered,
 * refused, unknown or too large); the Bot API's token is traced as `bot<redacted>`; the header secret
 * is another value, and the path secret sent as the header is refused. Traces go to a collector on
 * loopback, with the headers of OTEL_EXPORTER_OTLP_HEADERS.
 */
import { assert, describe, it } from "@effect/vitest"
import { createDatabase, databaseUrl, dropDatabase, uniqueName } from "@resale/store/testing/TestDatabase.ts"
import { Effect } from "effect"
import { createHmac } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer, type IncomingHttpHeaders, request } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { freePort, startEntry, stopEntry } from "../support/ServerEntry.ts"
import { bundledEntry } from "../worker/support/BundledEntry.ts"

const SESSION_SECRET = "logs-test-session-secret-0123456789abcdef"
const BOT_TOKEN = "4242424:bot-token-never-in-a-trace"
const PROXY_PASSWORD = "proxy-password-7170"
const GIFT_SESSION = "gift-sender-session-string-8180"
const OTLP_KEY = "otlp-collector-key-5150"
const OTLP_BEARER = "otlp-bearer-6160"

/** The webhook secrets as the configuration derives them from SESSION_SECRET. */
const derived = (label: string) => createHmac("sha256", SESSION_SECRET).update(label).digest("hex").slice(0, 32)
const PATH_SECRET = derived("webhook")
const HEADER_SECRET = derived("webhook header")

/** A loopback server recording each request's path, headers and body, answering `answer`. */
const recorder = (answer: string) =>
  Effect.acquireRelease(
    Effect.promise(
      () =>
        new Promise<{
          readonly url: string
          readonly seen: Array<{ path: string; headers: IncomingHttpHeaders; body: string }>
          readonly close: () => void
        }>((resolve) => {
          const seen: Array<{ path: string; headers: IncomingHttpHeaders; body: string }> = []
          const server = createServer((request, response) => {
            let body = ""
            request.on("data", (chunk) => (body += chunk))
            request.on("end", () => {
              seen.push({ path: request.url ?? "", headers: request.headers, body })
              response.writeHead(200, { "content-type": "application/json" }).end(answer)
            })
          })
          server.listen(0, "127.0.0.1", () =>
            resolve({
              url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
              seen,
              close: () => server.close()
            })
          )
        })
    ),
    (recorded) => Effect.sync(recorded.close)
  )

const post = (url: string, body: string, headers: Record<string, string> = {}) =>
  Effect.promise(async () => {
    const response = await fetch(url, {
      method: "POST",
      body,
      headers: { "content-type": "application/json", ...headers },
      signal: AbortSignal.timeout(30_000)
    })
    await response.text()
    return response.status
  })

/** A POST declaring a body over the limit and sending none: the server answers before reading. */
const declaredTooLarge = (url: string) =>
  Effect.promise(
    () =>
      new Promise<number>((resolve, reject) => {
        const sent = request(url, { method: "POST", headers: { "content-length": "200000" } }, (response) => {
          response.resume()
          resolve(response.statusCode ?? 0)
        })
        sent.on("error", reject)
        sent.flushHeaders()
      })
  )

const start = (updateId: number) =>
  JSON.stringify({
    update_id: updateId,
    message: {
      message_id: 1,
      date: 0,
      text: "/start",
      from: { id: 77001, is_bot: false, first_name: "Logs" },
      chat: { id: 77001, type: "private" }
    }
  })

describe("secrets in the logs and traces of the running server", () => {
  it.live(
    "webhook lines and spans show the pattern; no token, secret, password, session or collector header anywhere",
    () =>
      Effect.gen(function* () {
        const name = uniqueName("secret_logs")
        yield* Effect.acquireRelease(createDatabase(name), () => dropDatabase(name).pipe(Effect.orDie)).pipe(
          Effect.orDie
        )
        const dataDir = mkdtempSync(join(tmpdir(), "resale-secrets-"))
        yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dataDir, { recursive: true, force: true })))
        const bot = yield* recorder(`{"ok":true,"result":{}}`)
        const collector = yield* recorder("{}")
        const port = yield* Effect.promise(freePort)
        const base = `http://127.0.0.1:${port}`
        const env: NodeJS.ProcessEnv = {
          PATH: process.env["PATH"],
          SANDBOX: "true",
          WORKER: "false",
          PORT: String(port),
          DATA_DIR: dataDir,
          DATABASE_URL: databaseUrl(name),
          ADMIN_TOKEN: "logs-test-admin-token-5d1f0c2b9e",
          SESSION_SECRET,
          TELEGRAM_BOT_TOKEN: BOT_TOKEN,
          TELEGRAM_API_URL: bot.url,
          FRAGMENT_PROXY: `http://proxyuser:${PROXY_PASSWORD}@127.0.0.1:9`,
          GIFT_SENDER_USER_SESSION: GIFT_SESSION,
          OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
          OTEL_EXPORTER_OTLP_HEADERS: `x-collector-key=${OTLP_KEY},authorization=Bearer%20${OTLP_BEARER}`
        }
        const server = yield* startEntry(env, port, undefined, yield* bundledEntry("server"))
        const webhook = `${base}/v2/bot/webhook/${PATH_SECRET}`

        // The path secret as the header proves nothing; the header secret does.
        assert.strictEqual(yield* post(webhook, start(1), { "x-telegram-bot-api-secret-token": PATH_SECRET }), 403)
        assert.strictEqual(yield* post(webhook, start(2), { "x-telegram-bot-api-secret-token": HEADER_SECRET }), 200)
        // Unknown under the prefix, and too large before any route reads it.
        assert.strictEqual(yield* post(`${base}/v2/bot/webhook/${PATH_SECRET}/more`, "{}"), 404)
        assert.strictEqual(yield* declaredTooLarge(webhook), 413)
        // The /start answer went to the Bot API (its span carries the token's place).
        for (let i = 0; i < 100 && !bot.seen.some((r) => r.path.endsWith("/sendMessage")); i++)
          yield* Effect.sleep("100 millis")
        assert.isTrue(bot.seen.some((r) => r.path === `/bot${BOT_TOKEN}/sendMessage`))

        assert.strictEqual(yield* stopEntry(server), 0)
        const lines = server
          .stdout()
          .split("\n")
          .filter((line) => line !== "")
          .map((line) => JSON.parse(line) as Record<string, unknown>)
        const hooks = lines.filter((line) => String(line["path"]).startsWith("/v2/bot/webhook/"))
        assert.sameMembers(
          hooks.map((line) => `${line["message"]} ${line["path"]}`),
          [403, 200, 404, 413].map((status) => `POST /v2/bot/webhook/:secret ${status} /v2/bot/webhook/:secret`)
        )

        // Spans are flushed at shutdown, with the collector's headers.
        const traces = collector.seen.filter((r) => r.path === "/v1/traces")
        assert.isAbove(traces.length, 0, "traces reached the collector")
        assert.strictEqual(traces[0]!.headers["x-collector-key"], OTLP_KEY)
        const sent = traces.map((r) => r.body).join("\n")
        assert.include(sent, "/v2/bot/webhook/:secret")
        assert.include(sent, "/bot<redacted>/sendMessage")

        for (const secret of [
          BOT_TOKEN,
          PATH_SECRET,
          HEADER_SECRET,
          PROXY_PASSWORD,
          GIFT_SESSION,
          OTLP_KEY,
          OTLP_BEARER
        ]) {
          assert.notInclude(server.output(), secret)
          assert.notInclude(sent, secret)
        }
      }),
    180_000
  )
})
