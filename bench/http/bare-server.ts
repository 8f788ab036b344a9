import { PgClient } from "@effect/sql-pg"
import { Context, Effect, Layer, Redacted, Scope } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { createHash, randomUUID } from "node:crypto"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"

/**
 * The baselines: bare node:http answering
 * - `GET /v2/api/pricing` with the same JSON the service answers;
 * - `GET /logged/v2/api/pricing`: the same, with the service's two more headers (`cache-control`,
 *   `x-request-id`) and one JSON access line per request to stdout, written per event-loop turn;
 * - `GET /v2/api/balance` with the same two queries the service runs (the user by the key's SHA-256,
 *   then the account's balance) through the same PostgreSQL driver (`@effect/sql-pg`, same pool size),
 *   and nothing else: no validation, logging, metrics or security headers.
 * Run: node bench/http/bare-server.ts PORT PRICING_JSON [DATABASE_URL] [SANDBOX true|false]
 */
const port = Number(process.argv[2] ?? 0)
const pricing = process.argv[3] ?? "{}"
const databaseUrl = process.argv[4]
const sandbox = process.argv[5] === "true"

const scope = Effect.runSync(Scope.make())
const context =
  databaseUrl === undefined
    ? undefined
    : await Effect.runPromise(
        Layer.buildWithScope(
          PgClient.layer({
            url: Redacted.make(databaseUrl),
            maxConnections: 10,
            minConnections: 1,
            startupParameters: { timezone: "UTC" }
          }),
          scope
        )
      )
const sql = context === undefined ? undefined : Context.get(context, SqlClient)

const balanceOf = (key: string) =>
  Effect.gen(function* () {
    const hash = createHash("sha256").update(key).digest("hex")
    const [user] = yield* sql!<{
      id: number
    }>`SELECT id, telegram_id, username, first_name, photo_url, tier, api_key_hash IS NOT NULL AS has_api_key, bot_chat_id, created_at FROM users WHERE api_key_hash = ${hash}`
    if (user === undefined) return undefined
    const [row] = yield* sql!<{ balance_uzs: bigint }>`SELECT balance_uzs FROM accounts WHERE user_id = ${user.id}`
    return String(row?.balance_uzs ?? 0n)
  })

// Access lines of one event-loop turn, written together (as the service's are).
let lines: Array<string> = []
const flush = () => {
  process.stdout.write(lines.join(""))
  lines = []
}
/** The answer the service gives (its headers too) and one JSON access line with its fields. */
const pricingLogged = (req: IncomingMessage, res: ServerResponse) => {
  const started = performance.now()
  const id = randomUUID()
  res.writeHead(200, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(pricing),
    "cache-control": "no-store",
    "x-request-id": id
  })
  res.end(pricing)
  if (lines.length === 0) setImmediate(flush)
  lines.push(
    JSON.stringify({
      time: new Date().toISOString(),
      level: "info",
      message: "GET /v2/api/pricing 200",
      process: "bare",
      request_id: id,
      method: "GET",
      route: "/v2/api/pricing",
      path: "/v2/api/pricing",
      status: 200,
      duration_ms: Math.round((performance.now() - started) * 10) / 10,
      client: req.socket.remoteAddress ?? null
    }) + "\n"
  )
}

createServer((req, res) => {
  if (req.method === "GET" && req.url === "/logged/v2/api/pricing") {
    pricingLogged(req, res)
  } else if (req.method === "GET" && req.url === "/v2/api/pricing") {
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(pricing) })
    res.end(pricing)
  } else if (req.method === "GET" && req.url === "/v2/api/balance" && sql !== undefined) {
    const key = req.headers["x-api-key"]
    Effect.runPromise(balanceOf(typeof key === "string" ? key : "")).then(
      (balance) => {
        const body =
          balance === undefined
            ? JSON.stringify({ detail: "Invalid API key" })
            : `{"balance_uzs":${balance},"sandbox":${sandbox}}`
        res.writeHead(balance === undefined ? 401 : 200, {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body)
        })
        res.end(body)
      },
      () => {
        res.writeHead(500)
        res.end()
      }
    )
  } else {
    res.writeHead(404)
    res.end()
  }
}).listen(port, "127.0.0.1", () => console.log("ready"))
