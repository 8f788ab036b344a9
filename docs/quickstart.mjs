// The sandbox quickstart (docs/quickstart.md) end to end, with plain fetch on Node 22:
//   WEBHOOKS_ALLOW_LOOPBACK=true ADMIN_TOKEN=choose-a-token npm start      # in one shell
//   BASE_URL=http://127.0.0.1:8000 ADMIN_TOKEN=choose-a-token node docs/quickstart.mjs
// It signs in, gets an API key, registers a webhook on a loopback receiver, tops up, has the bank
// payment posted, buys stars, follows the order to `completed` and verifies the signed webhook.
// The last line is `quickstart: done {...}`; any failure exits 1 with the answer that stopped it.
import { createHmac, randomUUID, timingSafeEqual } from "node:crypto"
import { createServer } from "node:http"

const BASE = (process.env.BASE_URL ?? "http://127.0.0.1:8000").replace(/\/$/, "")
const ADMIN_TOKEN = process.env.ADMIN_TOKEN
const TIMEOUT_MS = Number(process.env.QUICKSTART_TIMEOUT_MS ?? 240_000)
if (!ADMIN_TOKEN) throw new Error("set ADMIN_TOKEN to the token npm start printed (or the one you gave it)")

const step = (text) => console.log(`quickstart: ${text}`)

/** A JSON request; any status but `expect` stops the script with the answer's body. */
const api = async (method, path, { body, headers = {}, expect = 200 } = {}) => {
  const response = await fetch(`${BASE}${path}`, {
    method,
    headers: { accept: "application/json", ...(body ? { "content-type": "application/json" } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined
  })
  const text = await response.text()
  if (response.status !== expect) throw new Error(`${method} ${path} answered ${response.status}: ${text}`)
  return text === "" ? {} : JSON.parse(text)
}

const poll = async (what, look, done) => {
  const deadline = Date.now() + TIMEOUT_MS
  for (;;) {
    const value = await look()
    if (done(value)) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`)
    await new Promise((resolve) => setTimeout(resolve, 1000))
  }
}

/** Standard Webhooks: HMAC-SHA256 of `id.timestamp.body` with the secret's base64 key, fresh within 5 minutes. */
const verify = (secret, headers, rawBody) => {
  const key = Buffer.from(secret.slice("whsec_".length), "base64")
  const expected = createHmac("sha256", key)
    .update(`${headers["webhook-id"]}.${headers["webhook-timestamp"]}.${rawBody}`)
    .digest()
  const fresh = Math.abs(Date.now() / 1000 - Number(headers["webhook-timestamp"])) < 300
  return (
    fresh &&
    String(headers["webhook-signature"] ?? "")
      .split(" ")
      .some((s) => {
        const given = Buffer.from(s.slice(3), "base64")
        return s.startsWith("v1,") && given.length === expected.length && timingSafeEqual(given, expected)
      })
  )
}

// 1. Sign in: the sandbox link answers 303 with the session cookie; keep it (redirect "manual",
//    else fetch follows the redirect and the Set-Cookie is lost).
const signIn = await fetch(`${BASE}/v2/auth/sandbox?user=demo`, { redirect: "manual" })
if (signIn.status !== 303) throw new Error(`sandbox sign-in answered ${signIn.status} (is this a sandbox server?)`)
const cookie = signIn.headers
  .getSetCookie()
  .map((c) => c.split(";")[0])
  .join("; ")
step("signed in as the sandbox demo user")

// 2. An API key: rotating makes a new one (shown once) and removes the old key's webhooks.
const { api_key: apiKey } = await api("POST", "/v2/api-key/rotate", { headers: { cookie } })
const key = { "x-api-key": apiKey }
step("got an API key")

// 3. A webhook endpoint on a loopback receiver (needs WEBHOOKS_ALLOW_LOOPBACK=true on the server).
const received = []
const receiver = createServer((request, response) => {
  let raw = ""
  request.on("data", (chunk) => (raw += chunk))
  request.on("end", () => {
    received.push({ headers: request.headers, raw })
    response.writeHead(204).end() // answer 2xx at once; work on the event afterwards
  })
})
await new Promise((resolve) => receiver.listen(0, "127.0.0.1", resolve))
const hookUrl = `http://127.0.0.1:${receiver.address().port}/webhooks`
const webhook = await api("POST", "/v2/api/webhooks", {
  headers: key,
  body: { url: hookUrl, events: ["topup.credited", "order.completed"] }
})
step(`webhook ${webhook.id} registered at ${hookUrl}`)

try {
  // 4. A top-up in JSON; the answer says the exact amount to transfer (`payable_uzs`).
  const created = await api("POST", "/v2/api/topups", {
    headers: { ...key, "idempotency-key": randomUUID() },
    body: { amount_uzs: 50000 }
  })
  const topupId = created.topup.topup_id
  step(`top-up ${topupId}: transfer ${created.payable_uzs} UZS`)

  // 5. The bank payment, as the bank relay posts it with the admin token: matched by its amount.
  const payment = await api("POST", "/v2/api/admin/payments/incoming", {
    headers: { "x-admin-token": ADMIN_TOKEN, "idempotency-key": randomUUID() },
    body: { amount_uzs: created.payable_uzs, external_id: `quickstart-${randomUUID()}` }
  })
  step(`bank payment ${payment.payment_id}: ${payment.status}`)
  const topup = await poll(
    "the top-up to be credited",
    () => api("GET", `/v2/api/topups/${topupId}`, { headers: key }),
    (t) => t.status === "paid"
  )
  step(`top-up ${topupId} paid: ${topup.credited_uzs} UZS credited`)

  // 6. Stars for a Telegram user, paid from the balance; the worker fulfils the order.
  const placed = await api("POST", "/v2/api/stars/buy", {
    headers: { ...key, "idempotency-key": randomUUID() },
    body: { username: "durov", amount: 50 }
  })
  const orderId = placed.order.order_id
  step(`order ${orderId} placed: ${placed.order.status}, balance ${placed.balance_uzs} UZS`)
  const order = await poll(
    `order ${orderId} to finish`,
    () => api("GET", `/v2/api/orders/${orderId}`, { headers: key }),
    (o) => ["completed", "failed", "needs_attention"].includes(o.status)
  )
  if (order.status !== "completed") throw new Error(`order ${orderId} ended ${JSON.stringify(order)}`)
  step(`order ${orderId} completed (tx ${order.tx_id})`)

  // 7. Its webhook: verify the signature over the raw body before trusting it.
  const delivery = await poll(
    `the order.completed webhook of order ${orderId}`,
    async () => received.find((r) => JSON.parse(r.raw).data.order_id === orderId),
    (r) => r !== undefined
  )
  if (!verify(webhook.secret, delivery.headers, delivery.raw)) throw new Error("the webhook signature does not verify")
  const event = JSON.parse(delivery.raw)
  step(`webhook ${delivery.headers["webhook-id"]} (${event.type}) verified`)
  step(
    `done ${JSON.stringify({
      topup_id: topupId,
      order_id: orderId,
      order_status: order.status,
      webhook_id: delivery.headers["webhook-id"],
      webhook_type: event.type,
      webhook_verified: true
    })}`
  )
} finally {
  receiver.close()
}
