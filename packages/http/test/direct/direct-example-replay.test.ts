/**
 * The direct document's examples are real answers: each operation's example request is replayed on
 * the TON VM (its placeholder phrase replaced by a funded one, its placeholder address by a real one)
 * and the answer must equal the documented answer. By shape only: what the chain and the market price
 * decide (costs, fees, balances, addresses, hashes), and what the sandbox says of itself (its network
 * and the "(sandbox: ...)" note of its messages), which a production server does not.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { directOpenApi } from "../../src/direct/DirectOpenApi.ts"
import { differences, type Shapes } from "../ExampleMatch.ts"
import { post } from "./support/client.ts"
import { type Json, media } from "./support/examples.ts"
import { DirectTestEnv, makeDirectTestEnv } from "./support/DirectTestServer.ts"
import { freshAddress, fundedWallet, newPhrase, ton } from "./support/wallets.ts"

const TON = (v: unknown) => typeof v === "number" && /^\d+(\.\d{1,9})?$/.test(String(v))
const text = (v: unknown) => typeof v === "string" && v !== ""
const SHAPES: Shapes = { cost: TON, fee: TON, balance: TON, address: text, tx_hash: text, network: text }
const SANDBOX_NOTES = [" (sandbox: no real TON moved)", " (sandbox: no real TON moves)", " (sandbox)"]

/** The message as a production server would say it of the example's values. */
const asDocumented = (message: string, answered: Json, example: Json, request: Json, asked: Json): string => {
  let out = SANDBOX_NOTES.reduce((m, note) => m.replace(note, ""), message)
  if (typeof request["to"] === "string") out = out.replace(request["to"], asked["to"])
  for (const key of Object.keys(SHAPES))
    if (answered[key] !== undefined && example[key] !== undefined)
      out = out.replace(String(answered[key]), String(example[key]))
  return out
}

layer(makeDirectTestEnv(), { timeout: "120 seconds", excludeTestServices: true })("direct examples replayed", (it) => {
  it.effect(
    "each operation's example request answers its example",
    () =>
      Effect.gen(function* () {
        const env = yield* DirectTestEnv
        const { phrase } = yield* fundedWallet(env, "ton24", "v5r1", ton(100))
        const found: Record<string, Array<string>> = {}
        for (const path of ["/stars/buy", "/premium/buy", "/coin/buy", "/coin/transfer", "/balance", "/status"]) {
          const { answered, asked } = media(path)
          const request = {
            ...asked,
            ...("seed" in asked ? { seed: phrase } : {}),
            ...("to" in asked ? { to: freshAddress() } : {})
          }
          const res = yield* post(env, path, request)
          const body = {
            ...res.body,
            ...(typeof res.body["message"] === "string"
              ? { message: asDocumented(res.body["message"], res.body, answered, request, asked) }
              : {}),
            ...("sandbox" in res.body ? { sandbox: false } : {})
          }
          const problems = res.status === 200 ? differences(answered, body, "$", SHAPES) : [`${res.status} ${res.text}`]
          if (problems.length > 0) found[path] = problems
        }
        // The Failure example: the stars example from a wallet holding 0.1 TON; amounts in its message by shape.
        const poor = yield* fundedWallet(env, "ton24", "v5r1", ton(0.1))
        const failure = (directOpenApi as Json)["components"]["schemas"]["Failure"]["examples"][0]
        const refused = yield* post(env, "/stars/buy", { ...media("/stars/buy").asked, seed: poor.phrase })
        const masked = (m: unknown) => String(m).replace(/\d+(\.\d+)?/g, "#")
        const problems = differences(
          { ...failure, message: masked(failure["message"]) },
          { ...refused.body, message: masked(refused.body["message"]) }
        )
        if (refused.status !== 400 || problems.length > 0) found["Failure"] = [refused.text, ...problems]
        // ... and from a phrase never funded; its addresses by shape.
        const unfunded = yield* post(env, "/stars/buy", {
          ...media("/stars/buy").asked,
          seed: yield* newPhrase("ton24")
        })
        const addresses = (m: unknown) => String(m).replace(/\b[EU]Q[A-Za-z0-9_-]{46}\b/g, "UQ...")
        const second = (directOpenApi as Json)["components"]["schemas"]["Failure"]["examples"][1]
        const unfundedProblems = differences(second, { ...unfunded.body, message: addresses(unfunded.body["message"]) })
        if (unfunded.status !== 400 || unfundedProblems.length > 0)
          found["Failure (never funded)"] = [unfunded.text, ...unfundedProblems]
        assert.deepStrictEqual(found, {})
      }),
    { timeout: 240_000 }
  )
})
