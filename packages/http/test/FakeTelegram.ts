import { createServer, type Server } from "node:http"

/** A loopback stand-in for api.telegram.org that records Bot API calls (`POST /bot<token>/<method>`). */
export interface FakeTelegram {
  readonly url: string
  readonly calls: Array<{ readonly path: string; readonly body: any }>
  readonly close: () => Promise<void>
}

export const startFakeTelegram = async (): Promise<FakeTelegram> => {
  const calls: FakeTelegram["calls"] = []
  const server: Server = createServer((req, res) => {
    let data = ""
    req.on("data", (chunk) => (data += chunk))
    req.on("end", () => {
      calls.push({ path: req.url ?? "", body: data ? JSON.parse(data) : null })
      res.writeHead(200, { "content-type": "application/json" })
      res.end(JSON.stringify({ ok: true, result: { message_id: calls.length } }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  const port = typeof address === "object" && address ? address.port : 0
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}
