import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { cliProcess as cli, CliTestLayer, json, PNG } from "./support/CliHarness.ts"
import { cookiesOf, http, ResaleServerLayer } from "./support/HttpServer.ts"

// The web server and the CLI child processes (the real launcher, end to end) share this file's PostgreSQL database.
const Flow = ResaleServerLayer.pipe(Layer.provideMerge(CliTestLayer))

layer(Flow, { timeout: "120 seconds", excludeTestServices: true })(
  "operator flow: web receipt -> CLI approve -> HTTP balance",
  (it) => {
    it.effect("a receipt top-up approved from the CLI shows up as balance over HTTP, on the web and on the API", () =>
      Effect.gen(function* () {
        // A shopper signs in (sandbox sign-in) and uploads a payment receipt of 150 000 UZS.
        const signIn = yield* http("/v2/auth/sandbox?user=zoe_flow")
        const cookie = cookiesOf(signIn)
        assert.include(cookie, "resale_session=")
        const form = new FormData()
        form.set("amount_uzs", "150000")
        form.set("receipt", new Blob([PNG], { type: "image/png" }), "receipt.png")
        const upload = yield* http("/v2/balance/top-up/receipt", { method: "POST", headers: { cookie }, body: form })
        assert.strictEqual(upload.status, 200, JSON.stringify(upload.body))
        const topupId: number = upload.body.topup_id
        assert.strictEqual(upload.body.status, "review")
        assert.strictEqual((yield* http("/v2/balance", { headers: { cookie } })).body.balance_uzs, 0)

        // The operator finds it from the terminal and approves it.
        const waiting = json(yield* cli(["topups", "list", "--status", "review", "--user", "@zoe_flow", "--json"]))
        assert.deepStrictEqual(
          waiting.topups.map((t: { topup_id: number }) => t.topup_id),
          [topupId]
        )
        const approve = yield* cli([
          "topups",
          "approve",
          String(topupId),
          "--note",
          "receipt matches the bank statement",
          "--yes"
        ])
        assert.strictEqual(approve.code, 0, approve.stderr)
        assert.include(approve.stdout, `Top-up #${topupId} is now paid.`)

        // The shopper's balance, over HTTP: the web session and the API key both see it.
        const balance = yield* http("/v2/balance", { headers: { cookie } })
        assert.strictEqual(balance.status, 200)
        assert.strictEqual(balance.body.balance_uzs, 150_000)
        const status = yield* http("/v2/balance/topup-status", { headers: { cookie } })
        assert.strictEqual(status.status, 200)

        const key = json(yield* cli(["users", "rotate-key", "@zoe_flow", "--json"])).api_key
        const api = yield* http("/v2/api/balance", { headers: { "x-api-key": key } })
        assert.strictEqual(api.status, 200, JSON.stringify(api.body))
        assert.strictEqual(api.body.balance_uzs, 150_000)

        // Approving twice from the CLI moves nothing: the web balance stays the same.
        const twice = yield* cli(["topups", "approve", String(topupId), "--yes"])
        assert.strictEqual(twice.code, 1)
        assert.strictEqual((yield* http("/v2/balance", { headers: { cookie } })).body.balance_uzs, 150_000)
      })
    )
  }
)
