/**
 * What an integrator does with the contract: a client generated from the served /v2/openapi.json
 * (openapi-typescript for the types, committed in packages/apiclient, openapi-fetch for the calls)
 * drives a whole purchase on the sandbox product in process, the worker fulfilling it on the TON VM
 * and the Fragment simulator. No casts, no hand-made requests: only the Telegram sign-in, which is a
 * browser's redirect dance and not part of the key API, uses the test helpers.
 */
import { assert, layer } from "@effect/vitest"
import { committedTypes, DOCUMENTS, generateTypes } from "@resale/apiclient/generate.ts"
import { v2Client, type V2Schemas } from "@resale/apiclient"
import { Effect, Schedule } from "effect"
import { signIn } from "../../packages/http/test/Client.ts"
import { ADMIN_TOKEN, WebWorld, webWorldLayer } from "../web/support/WebWorld.ts"

/** openapi-fetch's answer: `data` on a 2xx, `error` (the coded body) otherwise. */
interface Answer<T> {
  readonly data?: T
  readonly error?: unknown
  readonly response: Response
}

/** The success body, or the test fails with the status and the coded error. */
const ok = <T>(call: () => Promise<Answer<T>>): Effect.Effect<T> =>
  Effect.promise(async () => {
    const { data, error, response } = await call()
    if (data === undefined) throw new Error(`${response.status} ${response.url}: ${JSON.stringify(error)}`)
    return data
  })

const FINAL: ReadonlyArray<V2Schemas["Order"]["status"]> = ["completed", "failed", "needs_attention"]

/** The first line where two texts differ, to say what drifted. */
const firstDifference = (a: string, b: string): string => {
  const left = a.split("\n")
  const right = b.split("\n")
  const line = left.findIndex((text, i) => text !== right[i])
  return line < 0
    ? `line ${left.length + 1}`
    : `line ${line + 1}: ${JSON.stringify(left[line])} vs ${JSON.stringify(right[line])}`
}

// The server shows the Telegram widget (a bot name), so the shopper signs in as Telegram users do.
layer(webWorldLayer({}, { botUsername: "resale_test_bot" }), { timeout: "180 seconds", excludeTestServices: true })(
  "a client generated from the served OpenAPI document",
  (it) => {
    it.effect(
      "the committed client types are what the served documents generate (regenerate: npm run generate:client)",
      () =>
        Effect.gen(function* () {
          const { url } = yield* WebWorld
          for (const { file, path } of DOCUMENTS) {
            const served = yield* Effect.promise(() => fetch(`${url}${path}`).then((r) => r.text()))
            const generated = yield* Effect.promise(() => generateTypes(served))
            const committed = committedTypes(file)
            assert.isTrue(
              generated === committed,
              `${file} drifted from ${path} at ${firstDifference(generated, committed)}`
            )
          }
        })
    )

    it.effect("sign in, API key, top-up, bank payment, stars order, completion, order list", () =>
      Effect.gen(function* () {
        const { url } = yield* WebWorld
        // The shopper's session (the Telegram callback's cookie) makes the API key and the top-up.
        const cookie = yield* signIn(url, 97_000_101, "client_journey")
        const shopper = v2Client(url, { headers: { cookie } })
        const { api_key } = yield* ok(() =>
          shopper.POST("/v2/api-key/rotate", {
            body: {},
            headers: { "content-type": "application/x-www-form-urlencoded" }
          })
        )
        const topup = yield* ok(() =>
          shopper.POST("/v2/balance/top-up", {
            body: { amount_uzs: "100000" },
            headers: { "content-type": "application/x-www-form-urlencoded" }
          })
        )
        assert.isAtLeast(topup.payable_uzs, 100_000)

        // The bank relay reports the transfer with the operator's token; it matches the top-up.
        const operator = v2Client(url, { headers: { "X-Admin-Token": ADMIN_TOKEN } })
        const payment = yield* ok(() =>
          operator.POST("/v2/api/admin/payments/incoming", {
            body: { amount_uzs: topup.payable_uzs, card_last4: "4242", external_id: "client-journey-1" }
          })
        )
        assert.deepStrictEqual([payment.status, payment.topup_id], ["matched", topup.topup.topup_id])

        // From here on, only the key.
        const integrator = v2Client(url, { headers: { "X-API-Key": api_key } })
        assert.strictEqual((yield* ok(() => integrator.GET("/v2/api/balance"))).balance_uzs, topup.payable_uzs)
        const { star_price_uzs } = yield* ok(() => integrator.GET("/v2/api/pricing"))
        const buy = () =>
          integrator.POST("/v2/api/stars/buy", {
            params: { header: { "idempotency-key": "client-journey-stars-1" } },
            body: { username: "friend_of_client", amount: 100 }
          })
        const created = yield* ok(buy)
        assert.strictEqual(created.balance_uzs, topup.payable_uzs - 100 * star_price_uzs)
        // A retry with the same key answers the same order and charges nothing again.
        const replay = yield* Effect.promise(buy)
        assert.strictEqual(replay.response.headers.get("idempotent-replayed"), "true")
        assert.strictEqual(replay.data?.order.order_id, created.order.order_id)

        // The worker fulfils it in the sandbox; the integrator follows the order until it is final.
        const order_id = created.order.order_id
        const final = yield* ok(() =>
          integrator.GET("/v2/api/orders/{order_id}", { params: { path: { order_id } } })
        ).pipe(
          Effect.repeat({ schedule: Schedule.spaced("500 millis"), until: (order) => FINAL.includes(order.status) }),
          Effect.timeout("120 seconds")
        )
        assert.deepStrictEqual(
          [final.status, final.kind, final.stars, final.username],
          ["completed", "stars", 100, "friend_of_client"]
        )
        assert.isString(final.tx_id)

        const list = yield* ok(() =>
          integrator.GET("/v2/api/orders", { params: { query: { status: "completed", kind: "stars", limit: 10 } } })
        )
        assert.deepStrictEqual(
          list.orders.map((o) => o.order_id),
          [order_id]
        )
        assert.isFalse(list.has_more)
        assert.strictEqual((yield* ok(() => integrator.GET("/v2/api/balance"))).balance_uzs, created.balance_uzs)
      })
    )
  }
)
