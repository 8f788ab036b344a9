import { assert, describe, it } from "@effect/vitest"
import { createDatabase, databaseUrl, dropDatabase, uniqueName } from "@resale/store/testing/TestDatabase.ts"
import { Effect } from "effect"
import { createHash, createHmac } from "node:crypto"
import { entryProcess, freePort } from "../support/ServerEntry.ts"

/**
 * End to end over real HTTP on real PostgreSQL: the server is started as `npm start` starts it
 * (its own process, configuration from the environment), then a user signs in with Telegram,
 * creates a top-up, the bank relay posts the payment with the admin token, the balance shows it,
 * the user buys stars with the API key and sees the order in the list.
 */
const BOT_TOKEN = "424242:E2E-test-bot-token"
const ADMIN_TOKEN = "e2e-admin-token-for-tests"

const startServer = (port: number, url: string) =>
  entryProcess(
    {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: url,
      ADMIN_TOKEN,
      TELEGRAM_BOT_TOKEN: BOT_TOKEN,
      TELEGRAM_BOT_USERNAME: "resale_e2e_bot",
      SANDBOX: "true",
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      TELEGRAM_API_URL: "http://127.0.0.1:9"
    },
    port
  )

const login = (fields: Record<string, string>) => {
  const check = Object.keys(fields)
    .sort()
    .map((k) => `${k}=${fields[k]}`)
    .join("\n")
  const secret = createHash("sha256").update(BOT_TOKEN).digest()
  return new URLSearchParams({ ...fields, hash: createHmac("sha256", secret).update(check).digest("hex") })
}

const json = (response: Response) => Effect.promise(() => response.json() as Promise<any>)
const http = (input: string, init?: RequestInit) => Effect.promise(() => fetch(input, { redirect: "manual", ...init }))

describe("account flow end to end", () => {
  it.live(
    "sign in, top up, bank payment, balance, stars with the API key, order listed",
    () =>
      Effect.gen(function* () {
        const name = uniqueName("resale_e2e")
        yield* Effect.acquireRelease(createDatabase(name), () => dropDatabase(name).pipe(Effect.orDie)).pipe(
          Effect.orDie
        )
        const port = yield* Effect.promise(freePort)
        const server = yield* startServer(port, databaseUrl(name))
        const base = `http://127.0.0.1:${port}`
        assert.match(server.output(), new RegExp(`listening on http://127.0.0.1:${port}`))

        // The sign-in page binds the widget's callback to this browser (state cookie + state in the URL).
        const home = yield* http(`${base}/v2/`, { headers: { accept: "text/html" } })
        const state = home.headers
          .getSetCookie()
          .find((c) => c.startsWith("resale_login_state="))!
          .split(";")[0]!
        const authUrl = /data-auth-url="([^"]+)"/
          .exec(yield* Effect.promise(() => home.text()))![1]!
          .replaceAll("&amp;", "&")
        const callback = yield* http(
          `${authUrl}&${login({
            id: "777000111",
            first_name: "Nodira",
            username: "nodira_e2e",
            auth_date: String(Math.floor(Date.now() / 1000))
          })}`,
          { headers: { cookie: state } }
        )
        assert.strictEqual(callback.status, 303)
        const cookie = callback.headers
          .getSetCookie()
          .find((c) => c.startsWith("resale_session="))!
          .split(";")[0]!

        const topup = yield* json(
          yield* http(`${base}/v2/balance/top-up`, {
            method: "POST",
            headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
            body: "amount_uzs=100000"
          })
        )
        assert.isAtLeast(topup.payable_uzs, 100000)

        const payment = yield* json(
          yield* http(`${base}/v2/api/admin/payments/incoming`, {
            method: "POST",
            headers: { "x-admin-token": ADMIN_TOKEN, "content-type": "application/json" },
            body: JSON.stringify({ amount_uzs: topup.payable_uzs, card_last4: "4242", external_id: "bank-msg-1" })
          })
        )
        assert.deepStrictEqual([payment.status, payment.topup_id], ["matched", topup.topup.topup_id])

        const balance = yield* json(yield* http(`${base}/v2/balance`, { headers: { cookie } }))
        assert.strictEqual(balance.balance_uzs, topup.payable_uzs)

        const key = (yield* json(yield* http(`${base}/v2/api-key/rotate`, { method: "POST", headers: { cookie } })))
          .api_key
        const pricing = yield* json(yield* http(`${base}/v2/api/pricing`))
        const order = yield* json(
          yield* http(`${base}/v2/api/stars/buy`, {
            method: "POST",
            headers: { "x-api-key": key, "content-type": "application/json" },
            body: JSON.stringify({ username: "friend_of_nodira", amount: 100 })
          })
        )
        assert.strictEqual(order.order.status, "queued")
        assert.strictEqual(order.balance_uzs, topup.payable_uzs - 100 * pricing.star_price_uzs)

        const list = yield* json(yield* http(`${base}/v2/orders/list`, { headers: { cookie } }))
        assert.strictEqual(list.total, 1)
        assert.deepStrictEqual(
          [list.orders[0].order_id, list.orders[0].kind, list.orders[0].stars, list.orders[0].username],
          [order.order.order_id, "stars", 100, "friend_of_nodira"]
        )
        // The integrator follows the order with the same key.
        const followed = yield* json(
          yield* http(`${base}/v2/api/orders/${order.order.order_id}`, { headers: { "x-api-key": key } })
        )
        assert.deepStrictEqual([followed.order_id, followed.price_uzs], [order.order.order_id, order.order.price_uzs])
        assert.include(["queued", "processing", "completed"], followed.status)
        const after = yield* json(yield* http(`${base}/v2/api/balance`, { headers: { "x-api-key": key } }))
        assert.strictEqual(after.balance_uzs, order.balance_uzs)
      }).pipe(Effect.scoped),
    90_000
  )
})
