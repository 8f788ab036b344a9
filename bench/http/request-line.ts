/**
 * CPU per request of the request line and metrics alone (prints figures; never pass/fail), for
 * `GET /v2/api/pricing` in a context with the process's JSON logger, 50 lines per event-loop turn as
 * under load, to stdout (run with stdout discarded) or, with `LINE_SINK=memory`, to a function.
 * Alternates the general way (`recordRequestFacts`, as the request log middleware) and the front
 * door's (`requestRecorder`: metrics found once per series, lines from a shape). CPU time
 * (`process.cpuUsage`), so a shared machine's other processes move it less than wall time.
 * Run: node bench/http/request-line.ts [log|nolog] > /dev/null
 */
import { jsonLogger, makeJsonLogger } from "@resale/observability/Logging.ts"
import { registerEnvironmentSecrets } from "@resale/observability/LogRedaction.ts"
import { recordRequestFacts, requestRecorder, unroutedFacts } from "@resale/observability/RequestLog.ts"
import { type Context, Effect, Logger } from "effect"

const logger = process.env.LINE_SINK === "memory" ? makeJsonLogger(() => undefined) : jsonLogger
// The production benchmark's secrets, scrubbed from every line as there.
registerEnvironmentSecrets({
  ...process.env,
  ADMIN_TOKEN: "bench-admin-token-of-32-characters",
  SESSION_SECRET: "bench-http-session-secret-of-32-characters",
  TELEGRAM_BOT_TOKEN: "777:bench-bot-token"
})
const context = (await Effect.runPromise(
  Effect.context<never>().pipe(Effect.provide(Logger.layer([logger])))
)) as Context.Context<never>
const log = (process.argv[2] ?? "log") === "log"
const LINES = 300_000
const record = requestRecorder(context, { log })

const ways = {
  general: () =>
    recordRequestFacts(
      unroutedFacts("GET", "/v2/api/pricing", 200, 0.3, "127.0.0.1", crypto.randomUUID()),
      { log },
      context
    ),
  "front door": () => record("GET", "/v2/api/pricing", 200, 0.3, "127.0.0.1", crypto.randomUUID(), undefined, undefined)
}

for (let round = 0; round < 4; round++) {
  for (const [name, one] of Object.entries(ways)) {
    const started = process.cpuUsage()
    for (let i = 0; i < LINES; i++) {
      one()
      if (i % 50 === 49) await new Promise((resolve) => setImmediate(resolve))
    }
    const used = process.cpuUsage(started)
    console.error(
      `round ${round + 1}, ${name}: ${((used.user + used.system) / LINES).toFixed(2)} us CPU per request (${log ? "line and metrics" : "metrics alone"})`
    )
  }
}
