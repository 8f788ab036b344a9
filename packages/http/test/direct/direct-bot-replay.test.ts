/**
 * The request shapes of three styles of bots that call the hosted service this surface mirrors,
 * replayed over HTTP on the TON VM and real PostgreSQL, with the answers read the way those bots read
 * them (`ok`; `code` or `error`; `message` or `error`; `order_id`, `cost`, `tx_hash`):
 * - style 1: POST /status {} first, `PIXY-STARS-xxxxxxxx` ids, `@username`, amounts as strings, and
 *   a retry of the same request after its own time-out;
 * - style 2: `ORD<ms>` ids, a failed order re-sent under its id after the wallet is topped up;
 * - style 3: `STARS-<ms>-<HEX6>` ids for stars and one constant id for every TON sale.
 * Plus two wallets racing on one order id: neither sees or blocks the other.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Fiber } from "effect"
import { randomBytes } from "node:crypto"
import type { Answer } from "./support/client.ts"
import { post } from "./support/client.ts"
import { closeGate, DirectTestEnv, makeDirectTestEnv } from "./support/DirectTestServer.ts"
import { balanceOf, freshAddress, fundedWallet, incoming, nano, ton } from "./support/wallets.ts"

/** What such a bot takes from an answer. */
const asBotReads = (res: Answer) => {
  const b = res.body
  const text = (v: unknown) => (typeof v === "string" ? v : undefined)
  return {
    ok: b["ok"] === true,
    code: text(b["code"]) ?? text(b["error"]),
    message: text(b["message"]) ?? text(b["error"]),
    orderId: text(b["order_id"]),
    cost: typeof b["cost"] === "number" ? b["cost"] : undefined,
    txHash: text(b["tx_hash"])
  }
}

const hex = (bytes: number) => randomBytes(bytes).toString("hex")

const waitUntil = (check: () => boolean) =>
  Effect.gen(function* () {
    for (let i = 0; i < 200 && !check(); i++) yield* Effect.sleep("25 millis")
    assert.isTrue(check(), "timed out waiting")
  })

layer(makeDirectTestEnv(), { timeout: "180 seconds", excludeTestServices: true })(
  "bots of the hosted service, replayed",
  (it) => {
    it.effect(
      "style 1: POST /status {}, PIXY-STARS ids, @username, string amounts, a retry after its own time-out",
      () =>
        Effect.gen(function* () {
          const env = yield* DirectTestEnv
          const status = asBotReads(yield* post(env, "/status", {}))
          assert.isTrue(status.ok)
          const { address, phrase } = yield* fundedWallet(env, "ton24", "v4r2", ton(20))
          const body = { username: "@pixystyle", amount: "50", seed: phrase, order_id: `PIXY-STARS-${hex(4)}` }
          const bought = asBotReads(yield* post(env, "/stars/buy", body))
          assert.isTrue(bought.ok, bought.message)
          assert.strictEqual(bought.orderId, body.order_id)
          assert.isTrue((bought.cost ?? 0) > 0)
          const balance = yield* balanceOf(env, address)
          assert.strictEqual(ton(20) - balance, nano(bought.cost))
          // The bot timed out and asks again: the same answer, nothing paid.
          const retried = asBotReads(yield* post(env, "/stars/buy", body))
          assert.deepStrictEqual(retried, bought)
          assert.strictEqual(yield* balanceOf(env, address), balance)
          // A refused request reads as ok false with a code and a message.
          const refused = asBotReads(
            yield* post(env, "/stars/buy", { ...body, amount: "10", order_id: `PIXY-STARS-${hex(4)}` })
          )
          assert.deepStrictEqual([refused.ok, refused.code], [false, "INVALID_AMOUNT_MIN"])
          assert.isString(refused.message)
        }),
      60_000
    )

    it.effect(
      "style 2: ORD<ms> ids; a failed order re-sent under its id after a top-up pays once",
      () =>
        Effect.gen(function* () {
          const env = yield* DirectTestEnv
          const { address, phrase } = yield* fundedWallet(env, "bip12", "v5r1", ton(0.5))
          const to = freshAddress()
          const body = { to, amount: "1", seed: phrase, order_id: `ORD${Date.now()}` }
          const poor = asBotReads(yield* post(env, "/coin/transfer", body))
          assert.deepStrictEqual([poor.ok, poor.code, poor.orderId], [false, "INSUFFICIENT_FUNDS", body.order_id])
          assert.isString(poor.message)
          yield* env.sandbox.fund(address, ton(5))
          const paid = asBotReads(yield* post(env, "/coin/transfer", body))
          assert.isTrue(paid.ok, paid.message)
          assert.match(paid.txHash ?? "", /^[0-9a-f]{64}$/)
          assert.strictEqual(paid.orderId, body.order_id)
          assert.strictEqual((yield* incoming(env, to)).length, 1)
          // A TON top-up with the amount as a string, under the next ORD id.
          const topup = asBotReads(
            yield* post(env, "/coin/buy", {
              username: "ordstyle",
              amount: "1",
              seed: phrase,
              order_id: `ORD${Date.now() + 1}`
            })
          )
          assert.isTrue(topup.ok, topup.message)
        }),
      60_000
    )

    it.effect(
      "style 3: STARS-<ms>-<HEX6> ids, and one constant id for every TON sale (each new sale pays)",
      () =>
        Effect.gen(function* () {
          const env = yield* DirectTestEnv
          const { address, phrase } = yield* fundedWallet(env, "ton24", "v5r1", ton(50))
          const stars = asBotReads(
            yield* post(env, "/stars/buy", {
              username: "styleThree",
              amount: 75,
              seed: phrase,
              order_id: `STARS-${Date.now()}-${hex(3).toUpperCase()}`
            })
          )
          assert.isTrue(stars.ok, stars.message)
          const sale = (username: string, amount: number) =>
            post(env, "/coin/buy", { username, amount, seed: phrase, order_id: "TON_SALE" })
          const costs: Array<bigint> = [nano(stars.cost)]
          for (const [username, amount] of [
            ["firstcustomer", 1],
            ["secondcustomer", 2]
          ] as const) {
            const res = asBotReads(yield* sale(username, amount))
            assert.isTrue(res.ok, res.message)
            assert.strictEqual(res.orderId, "TON_SALE")
            costs.push(nano(res.cost))
          }
          // The bot repeats the last sale at once (its customer pressed twice): the stored result, nothing paid.
          const repeat = asBotReads(yield* sale("secondcustomer", 2))
          assert.deepStrictEqual([repeat.ok, repeat.cost], [true, Number(costs[2]) / 1e9])
          // The same sale again after the replay window: a new sale, paid again.
          yield* env.sql`UPDATE direct_purchases SET completed_at = completed_at - interval '20 minutes' WHERE order_id = 'TON_SALE' AND latest`
          const later = asBotReads(yield* sale("secondcustomer", 2))
          assert.isTrue(later.ok, later.message)
          costs.push(nano(later.cost))
          assert.strictEqual(
            ton(50) - (yield* balanceOf(env, address)),
            costs.reduce((a, b) => a + b, 0n)
          )
        }),
      90_000
    )

    it.effect(
      "two wallets race on one order id: each pays its own order once, neither is blocked or answered the other's",
      () =>
        Effect.gen(function* () {
          const env = yield* DirectTestEnv
          const a = yield* fundedWallet(env, "ton24", "v4r2", ton(5))
          const b = yield* fundedWallet(env, "bip12", "v4r2", ton(5))
          const [toA, toB] = [freshAddress(), freshAddress()]
          const open = closeGate(env.faults)
          const racing = yield* Effect.forkChild(
            Effect.all(
              [
                post(env, "/coin/transfer", { to: toA, amount: 1, seed: a.phrase, order_id: "ORD1" }),
                post(env, "/coin/transfer", { to: toB, amount: 2, seed: b.phrase, order_id: "ORD1" })
              ],
              { concurrency: 2 }
            )
          )
          // Both payments reach the chain: neither order id blocked the other.
          yield* waitUntil(() => env.faults.waiting === 2)
          open()
          const [resA, resB] = (yield* Fiber.join(racing)).map(asBotReads)
          assert.isTrue(resA!.ok && resB!.ok)
          assert.notStrictEqual(resA!.txHash, resB!.txHash)
          assert.strictEqual((yield* incoming(env, toA)).length, 1)
          assert.strictEqual((yield* incoming(env, toB)).length, 1)
          // Wallet B asking about its id never sees wallet A's order.
          const againB = asBotReads(
            yield* post(env, "/coin/transfer", { to: toB, amount: 2, seed: b.phrase, order_id: "ORD1" })
          )
          assert.strictEqual(againB.txHash, resB!.txHash)
        }),
      60_000
    )
  }
)
