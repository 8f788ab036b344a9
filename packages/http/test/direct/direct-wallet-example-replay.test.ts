/**
 * The wallet road's documented examples are real answers: each quote example is asked again for a
 * real TON Connect account (a key pair only the test holds), the stars quote is then signed, paid and
 * its signed message reported as the report example does, and the status asked as its example asks.
 * Each answer must equal its documented example, by shape only where the chain, the market price and
 * the run decide (costs, deadlines, addresses, the payload with its Ref#, the transaction hash).
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { differences, type Shapes } from "../ExampleMatch.ts"
import { post } from "./support/client.ts"
import { type Json, media } from "./support/examples.ts"
import { DirectTestEnv, makeDirectTestEnv } from "./support/DirectTestServer.ts"
import { makeBuyer, type TonConnectRequest } from "./support/tonconnect-wallet.ts"
import { ton } from "./support/wallets.ts"

const text = (v: unknown) => typeof v === "string" && v !== ""
const unixSeconds = (v: unknown) => typeof v === "number" && Number.isInteger(v) && v > 1_700_000_000
const SHAPES: Shapes = {
  cost: (v) => typeof v === "number" && v > 0,
  valid_until: unixSeconds,
  validUntil: unixSeconds,
  from: (v) => typeof v === "string" && /^0:[0-9a-f]{64}$/.test(v),
  address: text,
  // nanoton strings in the transaction's messages; the top-up's own amount is compared by value below
  amount: (v) => (typeof v === "string" ? /^\d+$/.test(v) : typeof v === "number"),
  payload: text,
  tx_hash: text
}

/** The answer as a production server says it: without the sandbox's note on its messages. */
const asProduction = (body: Json): Json =>
  typeof body["message"] === "string"
    ? { ...body, message: body["message"].replace(" (sandbox: no real TON moves)", "").replace(" (sandbox)", "") }
    : body

layer(makeDirectTestEnv(), { timeout: "120 seconds", excludeTestServices: true })(
  "wallet road examples replayed",
  (it) => {
    it.effect(
      "each quote example answers its example; the report and status examples answer theirs once paid",
      () =>
        Effect.gen(function* () {
          const env = yield* DirectTestEnv
          const buyer = yield* makeBuyer(env, "v5r1", ton(20))
          const found: Record<string, Array<string>> = {}
          const quote = (path: string) =>
            Effect.gen(function* () {
              const { answered, asked } = media(path)
              const res = yield* post(env, path, { ...asked, account: buyer.account })
              const problems =
                res.status === 200 ? differences(answered, asProduction(res.body), "$", SHAPES) : [res.text]
              if (path === "/coin/quote" && res.body["amount"] !== answered["amount"]) problems.push("$.amount")
              if (problems.length > 0) found[path] = problems
              return res.body
            })
          // The stars order to the end first: Fragment's session is held by an open purchase.
          const stars = yield* quote("/stars/quote")
          const boc = yield* buyer.sign(stars["transaction"] as TonConnectRequest)
          yield* buyer.broadcast(boc)
          const report = media("/wallet/report")
          const reported = yield* post(env, "/wallet/report", { ...report.asked, address: buyer.account.address, boc })
          const status = media("/wallet/status")
          let final: Json = {}
          for (let i = 0; i < 60 && final["final"] !== true; i++) {
            final = (yield* post(env, "/wallet/status", { ...status.asked, address: buyer.account.address })).body
            if (final["final"] !== true) yield* Effect.sleep("250 millis")
          }
          // the report answers the order as it stood then; the example shows it once delivered
          const replies: ReadonlyArray<readonly [string, Json, Json]> = [
            [
              "/wallet/report",
              report.answered,
              { ...reported.body, status: final["status"], final: final["final"], message: final["message"] }
            ],
            ["/wallet/status", status.answered, final]
          ]
          for (const [name, example, body] of replies) {
            const problems = differences(example, asProduction(body), "$", SHAPES)
            if (problems.length > 0) found[name] = problems
          }
          yield* quote("/premium/quote")
          yield* quote("/coin/quote")
          assert.deepStrictEqual(found, {})
        }),
      { timeout: 120_000 }
    )
  }
)
