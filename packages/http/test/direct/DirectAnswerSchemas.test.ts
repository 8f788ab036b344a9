/**
 * The direct document says exactly what the server answers: each success answer, on the real TON VM
 * over HTTP, carries every field its 200 schema requires and no field the schema does not list.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { directOpenApi } from "../../src/direct/DirectOpenApi.ts"
import type { Answer } from "./support/client.ts"
import { post } from "./support/client.ts"
import { DirectTestEnv, makeDirectTestEnv } from "./support/DirectTestServer.ts"
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
        for (const path of ["/stars/buy", "/premium/buy", "/coin/buy", "/coin/transfer", "/balance", "/status"]) {
          const schema = schemaOf(path)
          assert.includeMembers(schema["required"], ["ok", "message"], path)
          for (const field of schema["required"]) assert.property(schema["properties"], field, path)
        }
        assert.notInclude(schemaOf("/balance")["required"], "addresses")
        assert.property(schemaOf("/balance")["properties"], "addresses")
      })
    )

    it.effect("status, balance (never funded and funded), stars and a transfer answer as documented", () =>
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
      })
    )
  }
)
