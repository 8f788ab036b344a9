/**
 * `resale bot set-webhook` registers the server's webhook with Telegram: the path secret in the URL,
 * the header secret (another value) as `secret_token`; neither is printed.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { runInProcess } from "./support/InProcessCli.ts"

interface SetWebhook {
  readonly url: string
  readonly secret_token: string
}

/** A loopback Bot API answering `answer` and keeping each request's path and JSON body. */
const botApi = (answer: string) =>
  Effect.acquireRelease(
    Effect.promise(
      () =>
        new Promise<{ url: string; calls: Array<{ path: string; body: SetWebhook }>; close: () => void }>((resolve) => {
          const calls: Array<{ path: string; body: SetWebhook }> = []
          const server = createServer((request, response) => {
            let body = ""
            request.on("data", (chunk) => (body += chunk))
            request.on("end", () => {
              calls.push({ path: request.url ?? "", body: JSON.parse(body || "{}") })
              response.writeHead(200, { "content-type": "application/json" }).end(answer)
            })
          })
          server.listen(0, "127.0.0.1", () =>
            resolve({
              url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
              calls,
              close: () => server.close()
            })
          )
        })
    ),
    (api) => Effect.sync(api.close)
  )

const env = (apiUrl: string) => ({
  SANDBOX: "true",
  TELEGRAM_BOT_TOKEN: "5151:cli-webhook-token",
  TELEGRAM_API_URL: apiUrl,
  SESSION_SECRET: "cli-webhook-session-secret-0123456789",
  PUBLIC_URL: "https://shop.example",
  TELEGRAM_WEBHOOK_SECRET: undefined,
  TELEGRAM_WEBHOOK_HEADER_SECRET: undefined
})

describe("resale bot set-webhook", () => {
  it.live("sends the path secret in the URL and the header secret as secret_token, printing neither", () =>
    Effect.gen(function* () {
      const api = yield* botApi(`{"ok":true,"result":true}`)
      const run = yield* Effect.promise(() => runInProcess(["bot", "set-webhook"], env(api.url)))
      assert.strictEqual(run.code, 0, run.stdout)
      assert.strictEqual(api.calls.length, 1)
      const [call] = api.calls
      assert.strictEqual(call!.path, "/bot5151:cli-webhook-token/setWebhook")
      const path = /^https:\/\/shop\.example\/v2\/bot\/webhook\/([0-9a-f]{32})$/.exec(call!.body.url)?.[1]
      assert.isString(path)
      assert.match(call!.body.secret_token, /^[0-9a-f]{32}$/)
      assert.notStrictEqual(call!.body.secret_token, path)
      assert.include(run.stdout, "https://shop.example/v2/bot/webhook/<path secret>")
      assert.notInclude(run.stdout, path!)
      assert.notInclude(run.stdout, call!.body.secret_token)
    })
  )

  it.live("a refusal by Telegram is an error naming its description", () =>
    Effect.gen(function* () {
      const api = yield* botApi(`{"ok":false,"description":"Bad Request: bad webhook"}`)
      const run = yield* Effect.promise(() => runInProcess(["bot", "set-webhook"], env(api.url)))
      assert.strictEqual(run.code, 1)
      assert.include(run.stderr, "Telegram refused setWebhook")
      assert.include(run.stderr, "bad webhook")
    })
  )
})
