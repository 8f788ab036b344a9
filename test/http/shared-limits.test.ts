/**
 * Two servers (`npm start` with WORKER=false, production mode) on one PostgreSQL database, as an
 * operator scales out: what must hold for the service and not per process does.
 * - An address spreading wrong operator tokens (and wrong metrics tokens) over both servers meets one
 *   budget: after the free tries, both servers answer 429, even to the right token.
 * - The direct surface's rate limit (DIRECT_RATE_SHARED, on by default with DATABASE_URL) counts the
 *   requests of both servers in one window.
 * - A price changed through one server is what the other answers once its price list's lifetime
 *   (`PRICES_STALE_MS`, one second) has passed, though it had just cached the old list.
 */
import { assert, describe, it } from "@effect/vitest"
import { PRICES_STALE_MS } from "@resale/webkit/PricingCache.ts"
import { IsolatedPostgres } from "@resale/store/testing/IsolatedPostgres.ts"
import { Effect } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { entryProcess, freePort } from "../support/ServerEntry.ts"
import { bundledEntry } from "../worker/support/BundledEntry.ts"

const ADMIN_TOKEN = "shared-limits-admin-token-24+"
const METRICS_TOKEN = "shared-limits-metrics-token"
// Settings a developer's shell may carry that would change what the servers do.
const INHERITED = ["DATABASE_URL", "SANDBOX", "WORKER", "PUBLIC_URL", "HOST", "TONCENTER_URL", "FRAGMENT_URL"]

/** Production mode with its required settings; nothing outside is reached. */
const serverEnv = (url: string, port: number, dataDir: string): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const name of INHERITED) delete env[name]
  for (const name of Object.keys(env)) if (name.startsWith("DIRECT_RATE")) delete env[name]
  return {
    ...env,
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_URL: url,
    PG_POOL_MAX: "3",
    SANDBOX: "false",
    WORKER: "false",
    LOG_REQUESTS: "false",
    // The test plays several clients from loopback, each its rightmost X-Forwarded-For hop.
    TRUSTED_PROXIES: "127.0.0.1",
    DIRECT_RATE_LIMIT: "6",
    ADMIN_TOKEN,
    METRICS_TOKEN,
    SESSION_SECRET: "shared-limits-session-secret-of-32-chars",
    TELEGRAM_BOT_TOKEN: "123:shared-limits-bot-token",
    TELEGRAM_API_URL: "http://127.0.0.1:9",
    TONCENTER_URL: "http://127.0.0.1:9/api/v2/jsonRPC",
    FRAGMENT_URL: "http://127.0.0.1:9",
    FRAGMENT_COOKIES: "stel_ssid=t; stel_dt=-1; stel_token=t; stel_ton_token=t"
  }
}

interface Answer {
  readonly status: number
  readonly retryAfter: string | null
  readonly setCookie: string | null
  readonly text: string
}

const send = (base: string, path: string, init: RequestInit = {}) =>
  Effect.promise(async (): Promise<Answer> => {
    const response = await fetch(`${base}${path}`, { redirect: "manual", ...init })
    return {
      status: response.status,
      retryAfter: response.headers.get("retry-after"),
      setCookie: response.headers.get("set-cookie"),
      text: await response.text()
    }
  })

const adminCall = (base: string, client: string, token: string) =>
  send(base, "/v2/api/admin/payments/incoming", {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": client, "x-admin-token": token },
    body: JSON.stringify({ amount_uzs: 1000, card_last4: "1234", external_id: `ext-${client}-${token}` })
  })

const scrape = (base: string, client: string, token: string) =>
  send(base, "/metrics", { headers: { "x-forwarded-for": client, authorization: `Bearer ${token}` } })

/** A direct request cheap to answer (a field missing): the limit counts requests, whatever they ask. */
const directCall = (base: string) =>
  send(base, "/stars/buy", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ amount: 50 })
  })

const starPrice = (base: string) =>
  Effect.map(send(base, "/v2/api/pricing"), (answer) => JSON.parse(answer.text).star_price_uzs as number)

describe("two servers on one database", () => {
  it.live(
    "token guesses and direct requests meet one budget across servers; a price change reaches the other within its bound",
    () =>
      Effect.gen(function* () {
        const url = yield* IsolatedPostgres.database.pipe(Effect.orDie)
        const dataDirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), "resale-shared-limits-")))
        yield* Effect.addFinalizer(() =>
          Effect.sync(() => dataDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })))
        )
        const main = yield* bundledEntry("server")
        const [portA, portB] = yield* Effect.promise(() => Promise.all([freePort(), freePort()]))
        yield* Effect.all(
          [
            entryProcess(serverEnv(url, portA!, dataDirs[0]!), portA!, main),
            entryProcess(serverEnv(url, portB!, dataDirs[1]!), portB!, main)
          ],
          { concurrency: 2 }
        )
        const [a, b] = [`http://127.0.0.1:${portA}`, `http://127.0.0.1:${portB}`]

        // Five wrong operator tokens, spread over both servers: each server saw at most three.
        const guesser = "203.0.113.41"
        for (const [i, base] of [a, b, a, b, a].entries()) {
          assert.strictEqual((yield* adminCall(base, guesser, `guess-${i}`)).status, 401)
        }
        for (const base of [b, a]) {
          const blocked = yield* adminCall(base, guesser, ADMIN_TOKEN)
          assert.strictEqual(blocked.status, 429, `${base}: ${blocked.text}`)
          assert.isAtLeast(Number(blocked.retryAfter), 1)
        }
        // The operator's own address is another budget.
        assert.notInclude([401, 429], (yield* adminCall(b, "203.0.113.42", ADMIN_TOKEN)).status)

        // The metrics token the same way, with a budget of its own.
        const scraper = "203.0.113.51"
        for (const [i, base] of [b, a, b, a, b].entries()) {
          assert.strictEqual((yield* scrape(base, scraper, `wrong-${i}`)).status, 401)
        }
        for (const base of [a, b]) assert.strictEqual((yield* scrape(base, scraper, METRICS_TOKEN)).status, 429)
        assert.strictEqual((yield* scrape(a, "203.0.113.52", METRICS_TOKEN)).status, 200)

        // DIRECT_RATE_LIMIT=6 a minute for the pair: counted in the calendar minute, so start early in one.
        const intoMinute = Date.now() % 60_000
        if (intoMinute > 50_000) yield* Effect.sleep(`${60_000 - intoMinute + 100} millis`)
        for (const base of [a, b, a, b, a, b]) assert.strictEqual((yield* directCall(base)).status, 400)
        for (const base of [a, b]) {
          const limited = yield* directCall(base)
          assert.strictEqual(limited.status, 429, limited.text)
          assert.match(limited.text, /RATE_LIMITED/)
        }

        // B reads (and caches) the price list; the operator changes it through A.
        const before = yield* starPrice(b)
        const signedIn = yield* send(a, "/v2/admin/login", {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ token: ADMIN_TOKEN }).toString()
        })
        const cookie = (signedIn.setCookie ?? "").split(";")[0]!
        const changed = before + 7
        const set = yield* send(a, "/v2/admin/pricing", {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", cookie },
          body: new URLSearchParams({
            star_price_uzs: String(changed),
            premium_3_month_uzs: "175000",
            premium_6_month_uzs: "235000",
            premium_12_month_uzs: "415000"
          }).toString()
        })
        assert.strictEqual(set.status, 200, set.text)
        assert.strictEqual(yield* starPrice(a), changed, "the server that changed it answers it at once")
        // Once the bound has passed since the change, B answers the new price, whatever it cached.
        yield* Effect.sleep(`${PRICES_STALE_MS} millis`)
        assert.strictEqual(yield* starPrice(b), changed, "the other server within the bound")
      }).pipe(Effect.scoped),
    240_000
  )
})
