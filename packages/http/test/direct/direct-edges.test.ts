/**
 * The edges a client of the hosted service meets, over HTTP on the TON VM: /status on POST, the
 * surface's own 404/405 bodies, fields in the query string, /balance for a phrase never funded (and
 * the README's walkthrough from there), TON amounts as float numbers and as strings.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { assertFailure, call, get, post } from "./support/client.ts"
import { DirectTestEnv, makeDirectTestEnv } from "./support/DirectTestServer.ts"
import { addressOf, balanceOf, freshAddress, fundedWallet, incoming, newPhrase, ton } from "./support/wallets.ts"

const received = (env: DirectTestEnv["Service"], to: string) =>
  Effect.map(incoming(env, to), (txs) =>
    txs.map((tx) => {
      const info = tx.inMessage!.info
      return info.type === "internal" ? info.value.coins : -1n
    })
  )

layer(makeDirectTestEnv(), { timeout: "120 seconds", excludeTestServices: true })("direct edges", (it) => {
  it.effect(
    "/status answers GET and POST {}; other methods and unknown direct paths answer {ok:false, code, message}",
    () =>
      Effect.gen(function* () {
        const env = yield* DirectTestEnv
        const posted = yield* post(env, "/status", {})
        assert.deepStrictEqual([posted.status, posted.body["ok"], posted.body["status"]], [200, true, "ok"])
        assert.strictEqual((yield* get(env, "/status")).status, 200)
        const put = yield* call(env, "PUT", "/stars/buy", {})
        assertFailure(put, 405, "METHOD_NOT_ALLOWED")
        assert.strictEqual(put.headers["allow"], "GET, POST")
        assertFailure(yield* call(env, "PUT", "/status"), 405, "METHOD_NOT_ALLOWED")
        for (const path of ["/stars/buyy", "/coin/sell", "/ton/anything/else", "/premium"]) {
          assertFailure(yield* post(env, path, {}), 404, "NOT_FOUND")
          assertFailure(yield* get(env, path), 404, "NOT_FOUND")
        }
      }),
    30_000
  )

  it.effect(
    "GET takes fields from the query string (the body's win); a phrase in the URL is refused and told where to go",
    () =>
      Effect.gen(function* () {
        const env = yield* DirectTestEnv
        const { phrase } = yield* fundedWallet(env, "bip12", "v5r1", ton(10))
        const stars = yield* get(env, "/stars/buy?username=querybuyer&amount=50", { seed: phrase })
        assert.strictEqual(stars.status, 200, stars.text)
        assert.deepStrictEqual([stars.body["username"], stars.body["stars_amount"]], ["querybuyer", 50])
        const missing = yield* get(env, "/stars/buy?amount=50", { seed: phrase })
        assertFailure(missing, 400, "VALIDATION_ERROR", phrase)
        assert.match(String(missing.body["message"]), /username is required/)
        const inUrl = yield* get(env, `/stars/buy?username=querybuyer&amount=50&seed=${encodeURIComponent(phrase)}`)
        assertFailure(inUrl, 400, "VALIDATION_ERROR", phrase)
        assert.match(String(inUrl.body["message"]), /JSON body/)
      }),
    30_000
  )

  it.effect(
    "/balance of a brand-new phrase: both versions' addresses, state uninit, balance 0; funding the one shown then pays",
    () =>
      Effect.gen(function* () {
        const env = yield* DirectTestEnv
        for (const kind of ["ton24", "bip12"] as const) {
          const phrase = yield* newPhrase(kind)
          const res = yield* post(env, "/balance", { seed: phrase })
          assert.strictEqual(res.status, 200, res.text)
          const v4 = yield* addressOf(phrase, "v4r2")
          const v5 = yield* addressOf(phrase, "v5r1")
          assert.deepStrictEqual(
            [
              res.body["ok"],
              res.body["address"],
              res.body["version"],
              res.body["state"],
              res.body["status"],
              res.body["balance"]
            ],
            [true, v5, "v5r1", "uninit", "uninit", 0]
          )
          assert.deepStrictEqual(res.body["addresses"], { v4r2: v4, v5r1: v5 })
          const asked = yield* post(env, "/balance", { seed: phrase, wallet_version: "v4r2" })
          assert.deepStrictEqual([asked.body["address"], asked.body["version"]], [v4, "v4r2"])
          // The walkthrough: send TON to the address shown, then buy with the same phrase.
          yield* env.sandbox.fund(String(res.body["address"]), ton(3))
          const funded = yield* post(env, "/balance", { seed: phrase })
          assert.deepStrictEqual(
            [funded.body["address"], funded.body["balance"], funded.body["addresses"]],
            [v5, 3, undefined]
          )
          const to = freshAddress()
          const sent = yield* post(env, "/coin/transfer", { to, amount: 1, seed: phrase })
          assert.strictEqual(sent.status, 200, sent.text)
        }
      }),
    60_000
  )

  it.effect(
    "TON amounts: float numbers rounded to the nanoton, strings exact, more than 9 decimals in a string refused",
    () =>
      Effect.gen(function* () {
        const env = yield* DirectTestEnv
        const { address, phrase } = yield* fundedWallet(env, "ton24", "v4r2", ton(5))
        const to = freshAddress()
        const float = yield* post(env, "/coin/transfer", { to, amount: 0.1 + 0.2, seed: phrase })
        assert.strictEqual(float.status, 200, float.text)
        const text = yield* post(env, "/coin/transfer", { to, amount: "0.25", seed: phrase })
        assert.strictEqual(text.status, 200, text.text)
        assert.deepStrictEqual(yield* received(env, to), [300_000_000n, 250_000_000n])
        const before = yield* balanceOf(env, address)
        const tooFine = yield* post(env, "/coin/transfer", { to, amount: "0.3000000001", seed: phrase })
        assertFailure(tooFine, 400, "VALIDATION_ERROR", phrase)
        assert.match(String(tooFine.body["message"]), /more than 9 decimals/)
        assert.strictEqual(yield* balanceOf(env, address), before)
      }),
    30_000
  )
})
