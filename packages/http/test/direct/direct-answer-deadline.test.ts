/**
 * Answers before the client gives up: a payment still confirming at `answerWithin` answers 409
 * PENDING_TRANSACTION with its order id and goes on in the background; asking again with the same
 * request answers 409 while it runs and then its final result; nothing is paid twice.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Option } from "effect"
import { assertFailure, post } from "./support/client.ts"
import { closeGate, DirectTestEnv, makeDirectTestEnv } from "./support/DirectTestServer.ts"
import { freshAddress, fundedWallet, incoming, latestRecord, orderId, ton } from "./support/wallets.ts"

/** Asks the store until the order is final (the background fiber writes it there). */
const settled = (env: DirectTestEnv["Service"], id: string) =>
  Effect.gen(function* () {
    for (let i = 0; i < 200; i++) {
      const record = yield* latestRecord(env, id)
      if (Option.isSome(record) && (record.value.state === "done" || record.value.state === "failed"))
        return record.value
      yield* Effect.sleep("25 millis")
    }
    return yield* Effect.die(new Error(`${id} did not settle`))
  })

layer(makeDirectTestEnv({ settings: { answerWithin: "1 second" } }), {
  timeout: "60 seconds",
  excludeTestServices: true
})("direct answer deadline", (it) => {
  it.effect(
    "a payment still confirming answers 409 with its order_id; the same request later gets the result, paid once",
    () =>
      Effect.gen(function* () {
        const env = yield* DirectTestEnv
        const { phrase } = yield* fundedWallet(env, "ton24", "v5r1", ton(5))
        const to = freshAddress()
        const id = orderId("slow")
        const body = { to, amount: 1, seed: phrase, order_id: id }
        const open = closeGate(env.faults)
        const first = yield* post(env, "/coin/transfer", body)
        assertFailure(first, 409, "PENDING_TRANSACTION", phrase)
        assert.strictEqual(first.body["order_id"], id)
        const again = yield* post(env, "/coin/transfer", body)
        assertFailure(again, 409, "PENDING_TRANSACTION", phrase)
        assert.strictEqual(env.faults.waiting, 1, "one payment is in flight, the repeat started none")
        open()
        const record = yield* settled(env, id)
        assert.strictEqual(record.state, "done")
        const final = yield* post(env, "/coin/transfer", body)
        assert.deepStrictEqual([final.status, final.body["order_id"], final.body["tx_hash"]], [200, id, record.txHash])
        assert.strictEqual((yield* incoming(env, to)).length, 1)
      }),
    30_000
  )

  it.effect(
    "without an order_id the 409 names the order the service made, and that id gets the result",
    () =>
      Effect.gen(function* () {
        const env = yield* DirectTestEnv
        const { phrase } = yield* fundedWallet(env, "bip12", "v4r2", ton(5))
        const to = freshAddress()
        const open = closeGate(env.faults)
        const first = yield* post(env, "/coin/transfer", { to, amount: 1, seed: phrase })
        assertFailure(first, 409, "PENDING_TRANSACTION", phrase)
        const id = String(first.body["order_id"])
        assert.match(id, /^d[0-9a-z]+/)
        open()
        yield* settled(env, id)
        const final = yield* post(env, "/coin/transfer", { to, amount: 1, seed: phrase, order_id: id })
        assert.strictEqual(final.status, 200, final.text)
        assert.strictEqual((yield* incoming(env, to)).length, 1)
      }),
    30_000
  )
})
