/**
 * The direct document says exactly what the server answers: each success answer, on the real TON VM
 * over HTTP, carries every field its 200 schema requires and no field the schema does not list.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { directOpenApi } from "../../src/direct/DirectOpenApi.ts"
import { makeContractCheck } from "../ContractCheck.ts"
import type { Answer } from "./support/client.ts"
import { call, post } from "./support/client.ts"
import { DirectTestEnv, makeDirectTestEnv } from "./support/DirectTestServer.ts"
import { makeBuyer, type TonConnectRequest } from "./support/tonconnect-wallet.ts"
import { freshAddress, fundedWallet, newPhrase, orderId, ton } from "./support/wallets.ts"

type Json = Record<string, any>

const schemaOf = (path: string): Json =>
  (directOpenApi as Json)["paths"][path]["post"]["responses"]["200"]["content"]["application/json"]["schema"]

const assertMatches = (path: string, res: Answer) => {
  assert.strictEqual(res.status, 200, res.text)
  const schema = schemaOf(path)
  const keys = Object.keys(res.body)
  const missing = (schema["required"] as Array<string>).filter((k) => !keys.includes(k))
  const undocumented = keys.filter((k) => !(k in schema["properties"]))
  assert.deepStrictEqual({ missing, undocumented }, { missing: [], undocumented: [] }, `${path}: ${res.text}`)
}

layer(makeDirectTestEnv(), { timeout: "120 seconds", excludeTestServices: true })(
  "direct answers against their documented schemas",
  (it) => {
    it.effect("every 200 schema lists its required fields", () =>
      Effect.sync(() => {
        for (const path of [
          "/stars/buy",
          "/premium/buy",
          "/coin/buy",
          "/coin/transfer",
          "/balance",
          "/status",
          "/stars/quote",
          "/premium/quote",
          "/coin/quote",
          "/wallet/report",
          "/wallet/status"
        ]) {
          const schema = schemaOf(path)
          assert.includeMembers(schema["required"], ["ok", "message"], path)
          for (const field of schema["required"]) assert.property(schema["properties"], field, path)
        }
        assert.notInclude(schemaOf("/balance")["required"], "addresses")
        assert.property(schemaOf("/balance")["properties"], "addresses")
      })
    )

    it.effect(
      "status, balance (never funded and funded), stars and a transfer answer as documented",
      () =>
        Effect.gen(function* () {
          const env = yield* DirectTestEnv
          assertMatches("/status", yield* post(env, "/status", {}))

          const unfunded = yield* post(env, "/balance", { seed: yield* newPhrase("ton24") })
          assertMatches("/balance", unfunded)
          assert.isObject(unfunded.body["addresses"], unfunded.text)

          const { phrase } = yield* fundedWallet(env, "ton24", "v5r1", ton(50))
          const funded = yield* post(env, "/balance", { seed: phrase })
          assertMatches("/balance", funded)

          const stars = { username: "schemabuyer", amount: 50, seed: phrase, order_id: orderId("schema-stars") }
          assertMatches("/stars/buy", yield* post(env, "/stars/buy", stars))
          const transfer = { to: freshAddress(), amount: 0.5, seed: phrase, order_id: orderId("schema-transfer") }
          assertMatches("/coin/transfer", yield* post(env, "/coin/transfer", transfer))
        }),
      { timeout: 120_000 } // two purchases and a funding on the TON VM, on a loaded machine
    )

    it.effect(
      "every operation, GET and POST, answers success and coded errors its document declares, no more",
      () =>
        Effect.gen(function* () {
          const env = yield* DirectTestEnv
          const contract = makeContractCheck(directOpenApi as Json)
          const send = (method: "GET" | "POST" | "PUT", path: string, body?: unknown) =>
            Effect.map(call(env, method, path, body), (res) =>
              // A PUT is no operation: its 405 is checked as the POST's, which documents it.
              contract.check(`${method === "PUT" ? "POST" : method} ${path}`, { ...res, json: res.body })
            )
          const { phrase } = yield* fundedWallet(env, "ton24", "v5r1", ton(200))
          const unfunded = yield* newPhrase("bip12")
          const purchases: ReadonlyArray<readonly [string, Json]> = [
            ["/stars/buy", { username: "schemastars", amount: 50 }],
            ["/premium/buy", { username: "schemapremium", duration: 3 }],
            ["/coin/buy", { username: "schemacoin", amount: 1 }],
            ["/coin/transfer", { to: freshAddress(), amount: 0.1 }]
          ]
          for (const method of ["GET", "POST"] as const) {
            for (const [path, fields] of purchases) {
              const res = yield* send(method, path, { ...fields, seed: phrase, order_id: orderId(`all-${method}`) })
              assert.strictEqual(res.status, 200, `${method} ${path}: ${res.text}`)
              yield* send(method, path, { ...fields, seed: unfunded, order_id: orderId("poor") })
              yield* send(method, path, { seed: phrase })
              yield* send(method, path, "{not json")
            }
            yield* send(method, "/stars/buy", { username: "schemastars", amount: 10, seed: phrase })
            for (const path of ["/balance", "/status"]) {
              const res = yield* send(method, path, path === "/balance" ? { seed: phrase } : {})
              assert.strictEqual(res.status, 200, `${method} ${path}: ${res.text}`)
            }
            yield* send(method, "/balance", { seed: "not a phrase" })
            yield* send(method, "/status", "x".repeat(2_000_000))
          }
          yield* send("PUT", "/status")
          // the wallet road (POST only): quotes for a TON Connect account, the signed message reported, the status
          const buyer = yield* makeBuyer(env, "v5r1", ton(5))
          const quotes: ReadonlyArray<readonly [string, Json]> = [
            ["/stars/quote", { username: "schemawallet", amount: 50 }],
            ["/premium/quote", { username: "schemawallet", duration: 3 }],
            ["/coin/quote", { username: "schemawallet", amount: 1 }]
          ]
          const quoted: Array<Answer> = []
          for (const [path, fields] of quotes) {
            const id = orderId("wallet-schema")
            const res = yield* send("POST", path, { ...fields, account: buyer.account, order_id: id })
            assert.strictEqual(res.status, 200, `${path}: ${res.text}`)
            quoted.push(res)
            yield* send("POST", path, { ...fields, account: buyer.account, seed: phrase })
          }
          const first = quoted[0]!
          const boc = yield* buyer.sign(first.body["transaction"] as TonConnectRequest)
          yield* buyer.broadcast(boc)
          const order = { address: buyer.address, order_id: String(first.body["order_id"]) }
          assert.strictEqual((yield* send("POST", "/wallet/report", { ...order, boc })).status, 200)
          yield* send("POST", "/wallet/report", { ...order, order_id: "never-quoted", boc })
          for (const q of quoted) {
            const status = yield* send("POST", "/wallet/status", {
              address: buyer.address,
              order_id: q.body["order_id"]
            })
            assert.strictEqual(status.status, 200, status.text)
          }
          yield* send("POST", "/wallet/status", { address: buyer.address })
          assert.deepStrictEqual(contract.problems, [])
          // GET /status reads no body: it errs only when rate-limited (direct-rate-limit.test.ts) or the database is down.
          assert.deepStrictEqual(contract.uncovered(), { success: [], error: ["GET /status"] })
        }),
      { timeout: 240_000 } // eight purchases on the TON VM, on a loaded machine
    )
  }
)
