import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { assert, layer } from "@effect/vitest"
import { FragmentSandbox } from "@resale/marketplace"
import { IsolatedPostgres } from "@resale/store/testing/IsolatedPostgres.ts"
import { Context, Effect, Layer } from "effect"
import { HttpServer } from "effect/http"
import { createServer } from "node:http"
import { request } from "undici"
import { GiftCatalog } from "@resale/webkit/GiftCatalog.ts"
import { FastPaths, fastPathServer } from "../src/server/FastPaths.ts"
import { HttpConfig } from "@resale/webkit/HttpConfig.ts"
import { DatabasePing, HttpServices, httpApp } from "../src/server/HttpApp.ts"
import { serveLean } from "../src/server/LeanServe.ts"
import { WEB_ROUTES, WebUi } from "@resale/web/WebUi.ts"
import { call, signIn, TEST_ADMIN_TOKEN } from "./Client.ts"

/**
 * The fast paths answer exactly as effect's pipeline: the same requests, sent to `npm start`'s server
 * (fast paths in front of effect's handler) and to the same app on effect's own Node server (no fast
 * paths), over one database, give the same status, the same headers in the same order with the same
 * values (but `date`) and the same body, field by field (but the ids and times of a new order).
 */
class Fast extends Context.Service<Fast, { readonly url: string; readonly answered: () => number }>()(
  "test/parity/Fast"
) {}
class Plain extends Context.Service<Plain, { readonly url: string }>()("test/parity/Plain") {}

const config = HttpConfig.layerTest({ publicUrl: "https://resale.example" })
const store = IsolatedPostgres.layerStore
// With the web UI, as `npm start` serves it (signing in reads the home page).
const app = httpApp({ routes: WebUi, known: WEB_ROUTES }).pipe(
  Layer.provide(HttpServices),
  Layer.provide([GiftCatalog.layerSandbox, FragmentSandbox.layer(), config, DatabasePing.layer]),
  Layer.provide(store)
)
const urlOf = Effect.gen(function* () {
  const address = (yield* HttpServer.HttpServer).address
  if (address._tag === "UnixPathAddress") return yield* Effect.die("not a TCP server")
  return `http://127.0.0.1:${address.port}`
})
const FastSide = Layer.effect(Fast)(
  Effect.gen(function* () {
    const fast = yield* FastPaths
    return Fast.of({ url: yield* urlOf, answered: fast.answered })
  })
).pipe(
  Layer.provide(serveLean(app, { logRequests: false })),
  Layer.provide(fastPathServer({ port: 0, host: "127.0.0.1" })),
  Layer.provide(config)
)
const PlainSide = Layer.effect(Plain)(Effect.map(urlOf, (url) => Plain.of({ url }))).pipe(
  Layer.provide(serveLean(app, { logRequests: false })),
  Layer.provide(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" }))
)
// One database for both: built first, so both servers' apps find it (`serveLean`).
const Sides = Layer.mergeAll(FastSide, PlainSide).pipe(
  Layer.provide(Layer.effectDiscard(Effect.void).pipe(Layer.provide(store)))
) as Layer.Layer<Fast | Plain, unknown>

interface Sent {
  readonly method?: "GET" | "POST"
  readonly headers?: Record<string, string>
  readonly body?: string
}

const send = (base: string, path: string, sent: Sent, id: string) =>
  Effect.promise(async () => {
    const answer = await request(`${base}${path}`, {
      method: sent.method ?? "GET",
      headers: { ...sent.headers, "x-request-id": id },
      ...(sent.body === undefined ? {} : { body: sent.body })
    })
    return { status: answer.statusCode, headers: answer.headers, text: await answer.body.text() }
  })

/**
 * A body with the values that differ between two new orders masked: ids, times and the balance after
 * (each customer's top-up is payable at its own amount, a few so'm apart, so payments can be matched).
 */
const masked = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(masked)
  if (value === null || typeof value !== "object") return value
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      /(^|_)id$|_at$|^balance_uzs$/.test(k) && v !== null ? "<varies>" : masked(v)
    ])
  )
}

let sequence = 0
/** Sends the request to both servers and compares the answers field by field; gives the fast side's. */
const same = (
  what: string,
  path: string,
  sent: (side: "fast" | "plain") => Sent = () => ({}),
  options: { readonly newOrder?: boolean } = {}
) =>
  Effect.gen(function* () {
    const fast = yield* Fast
    const plain = yield* Plain
    const id = `parity-${++sequence}`
    const viaFast = yield* send(fast.url, path, sent("fast"), id)
    const viaPlain = yield* send(plain.url, path, sent("plain"), id)
    assert.strictEqual(viaFast.status, viaPlain.status, `${what}: status (${viaFast.text})`)
    assert.deepStrictEqual(Object.keys(viaFast.headers), Object.keys(viaPlain.headers), `${what}: header names`)
    for (const name of Object.keys(viaPlain.headers).filter((n) => n !== "date")) {
      assert.deepStrictEqual(viaFast.headers[name], viaPlain.headers[name], `${what}: ${name}`)
    }
    if (options.newOrder) {
      assert.deepStrictEqual(masked(JSON.parse(viaFast.text)), masked(JSON.parse(viaPlain.text)), `${what}: body`)
    } else {
      assert.strictEqual(viaFast.text, viaPlain.text, `${what}: body`)
    }
    return viaFast
  })

/** A customer with a paid top-up and an API key (made through the plain server; one database). */
const funded = (telegramId: number, name: string) =>
  Effect.gen(function* () {
    const { url } = yield* Plain
    const cookie = yield* signIn(url, telegramId, name)
    const topup = (yield* call(url, "/v2/balance/top-up", { form: { amount_uzs: "500000" }, cookie })).json.topup
    const paid = yield* call(url, `/v2/api/admin/topups/${topup.topup_id}/mark-paid`, {
      method: "POST",
      headers: { "x-admin-token": TEST_ADMIN_TOKEN }
    })
    assert.strictEqual(paid.json.status, "paid")
    const key = (yield* call(url, "/v2/api-key/rotate", { method: "POST", cookie })).json.api_key as string
    return { key, balance: topup.payable_uzs as number }
  })

layer(Sides, { timeout: "90 seconds", excludeTestServices: true })("fast path parity", (it) => {
  it.effect("the fast answers (pricing, balance) are the pipeline's, field by field", () =>
    Effect.gen(function* () {
      const fast = yield* Fast
      const { key } = yield* funded(7101, "parity_balance")
      /** `same`, with the fast side's answer given on its fast path. */
      const fastly = (what: string, path: string, sent?: () => Sent) =>
        Effect.gen(function* () {
          const before = fast.answered()
          yield* same(what, path, sent)
          assert.strictEqual(fast.answered(), before + 1, `${what}: answered on the fast path`)
        })
      // A price list request reads the prices once they are a second old (through the pipeline); the
      // next ones within that second are fast.
      const fresh = call(fast.url, "/v2/api/pricing")
      yield* fresh
      yield* fastly("pricing", "/v2/api/pricing")
      yield* fresh
      yield* fastly("pricing with a query", "/v2/api/pricing?lang=ru")
      yield* fastly("balance", "/v2/api/balance", () => ({ headers: { "x-api-key": key } }))
    })
  )

  it.effect("orders and every refusal (401, 404, 405, 413, 422) are the pipeline's, field by field", () =>
    Effect.gen(function* () {
      const fast = yield* Fast
      // Each server's customer orders: the answers differ only in the new order's ids and times and
      // the balance after, which is each customer's own.
      const customers = { fast: yield* funded(7102, "parity_fast"), plain: yield* funded(7103, "parity_plain") }
      const keys = { fast: customers.fast.key, plain: customers.plain.key }
      const before = fast.answered()
      const order = (body: unknown) => (side: "fast" | "plain") => ({
        method: "POST" as const,
        headers: { "x-api-key": keys[side], "content-type": "application/json" },
        body: JSON.stringify(body)
      })
      const bought = yield* same("order", "/v2/api/stars/buy", order({ username: "@friend", amount: "100" }), {
        newOrder: true
      })
      assert.strictEqual(bought.status, 200, bought.text)
      // Read from the plain server: the fast server may answer it itself (cache fresh), which is not counted here.
      const price = 100 * ((yield* call((yield* Plain).url, "/v2/api/pricing")).json.star_price_uzs as number)
      assert.strictEqual(JSON.parse(bought.text).balance_uzs, customers.fast.balance - price)
      const plainBalance = yield* call((yield* Plain).url, "/v2/api/balance", { headers: { "x-api-key": keys.plain } })
      assert.strictEqual(plainBalance.json.balance_uzs, customers.plain.balance - price)
      const others: Array<[string, string, (side: "fast" | "plain") => Sent, number]> = [
        ["balance without a key", "/v2/api/balance", () => ({}), 401],
        [
          "balance with an unknown key",
          "/v2/api/balance",
          () => ({ headers: { "x-api-key": `rk_${"B".repeat(43)}` } }),
          401
        ],
        [
          "order without a key",
          "/v2/api/stars/buy",
          () => ({
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ username: "@friend", amount: "100" })
          }),
          401
        ],
        ["unknown path", "/v2/api/pricingx", () => ({}), 404],
        ["pricing posted", "/v2/api/pricing", () => ({ method: "POST" }), 405],
        ["order too large", "/v2/api/stars/buy", order({ username: "x".repeat(70 * 1024) }), 413],
        ["order without its fields", "/v2/api/stars/buy", order({}), 422],
        ["balance with a query", "/v2/api/balance?x=1", () => ({ headers: { "x-api-key": keys.fast } }), 200]
      ]
      for (const [what, path, sent, status] of others) {
        assert.strictEqual((yield* same(what, path, sent)).status, status, what)
      }
      // None of these was the fast path's to answer.
      assert.strictEqual(fast.answered(), before)
    })
  )
})
