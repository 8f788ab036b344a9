/**
 * A local Telegram Bot API server: `POST /bot<token>/sendMessage` with a JSON body, answered in
 * the Bot API's format. Chats can be marked as having blocked the bot (403) or the server made
 * to fail (500).
 */
import { createServer, type IncomingMessage } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect } from "effect"

export interface BotMessage {
  readonly token: string
  readonly chatId: number
  readonly text: string
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    req.on("error", reject)
  })

export const startLocalBotApi = Effect.acquireRelease(
  Effect.promise(async () => {
    const messages: Array<BotMessage> = []
    const blocked = new Set<number>()
    const failing = { next: 0 }
    let messageId = 0
    const server = createServer(async (req, res) => {
      const body = await readBody(req)
      const match = /^\/bot([^/]+)\/sendMessage$/.exec(req.url ?? "")
      const reply = (status: number, answer: unknown) => {
        res.writeHead(status, { "content-type": "application/json" })
        res.end(JSON.stringify(answer))
      }
      if (match === null || req.method !== "POST")
        return reply(404, { ok: false, error_code: 404, description: "Not Found" })
      if (failing.next > 0) {
        failing.next--
        return reply(500, { ok: false, error_code: 500, description: "Internal Server Error" })
      }
      const params = JSON.parse(body) as { chat_id: number; text: string }
      if (blocked.has(params.chat_id)) {
        return reply(403, { ok: false, error_code: 403, description: "Forbidden: bot was blocked by the user" })
      }
      messages.push({ token: match[1] ?? "", chatId: params.chat_id, text: params.text })
      reply(200, {
        ok: true,
        result: { message_id: ++messageId, chat: { id: params.chat_id, type: "private" }, date: 0, text: params.text }
      })
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, messages, blocked, failing }
  }),
  ({ server }) =>
    Effect.promise(
      () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve())
          server.closeAllConnections()
        })
    )
).pipe(Effect.map(({ server: _server, ...rest }) => rest))
