/**
 * Exactly once per order id, over HTTP on the TON VM: concurrent duplicates answer 409 and pay once; a
 * finished order answers its stored result and pays nothing; network errors after sending never lead to a
 * second payment; an open outcome stays `unknown` until the chain settles it; a message that never landed
 * is replaced only after its valid_until; a defect answers 500 with an id and nothing else.
 */
import { assert, layer } from "@effect/vitest"
import { sha256Hex } from "@resale/core/Secrets.ts"
import { DirectPurchaseRecords } from "@resale/core/ports/DirectPurchaseRecords.ts"
import { PgDirectPurchaseRecords } from "@resale/store/PgDirectPurchaseRecords.ts"
import { Effect, Fiber, Option, Redacted } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { assertFailure, call, post } from "./support/client.ts"
import { closeGate, DirectTestEnv, makeDirectTestEnv } from "./support/DirectTestServer.ts"
import { balanceOf, freshAddress, fundedWallet, incoming, nano, orderId, ton, latestRecord } from "./support/wallets.ts"

const waitUntil = (check: () => boolean, what: string): Effect.Effect<void> =>
  Effect.gen(function* () {
    for (let i = 0; i < 200; i++) {
      if (check()) return
      yield* Effect.sleep("25 millis")
    }
    return yield* Effect.die(new Error(`timed out waiting until ${what}`))
  })

/** Fragment payments (incoming to its wallet) that carry this Ref#. */
const fragmentPayments = (env: DirectTestEnv["Service"], ref: string) =>
  Effect.map(incoming(env, env.fragment.walletAddress), (txs) =>
    txs.filter((tx) => tx.inMessage!.body.beginParse().skip(32).loadStringTail().includes(`Ref#${ref}`))
  )

layer(makeDirectTestEnv(), { timeout: "120 seconds", excludeTestServices: true })("direct exactly once", (it) => {
  it.effect(
    "the same order id concurrently: one payment, the duplicates answer 409 PENDING_TRANSACTION",
    () =>
      Effect.gen(function* () {
        const env = yield* DirectTestEnv
        const { phrase } = yield* fundedWallet(env, "ton24", "v4r2", ton(5))
        const to = freshAddress()
        const id = orderId("dup")
        const open = closeGate(env.faults)
        const first = yield* Effect.forkChild(
          post(env, "/coin/transfer", { to, amount: 1, seed: phrase, order_id: id })
        )
        yield* waitUntil(() => env.faults.waiting === 1, "the first payment is in flight")
        const duplicates = yield* Effect.forEach(
          Array.from({ length: 4 }),
          () => post(env, "/coin/transfer", { to, amount: 1, seed: phrase, order_id: id }),
          { concurrency: "unbounded" }
        )
        for (const res of duplicates) assertFailure(res, 409, "PENDING_TRANSACTION", phrase)
        // Another order of the same wallet must wait too: one seqno, one payment in flight.
        const other = yield* post(env, "/coin/transfer", { to, amount: 1, seed: phrase, order_id: orderId("other") })
        assertFailure(other, 409, "PENDING_TRANSACTION", phrase)
        open()
        const res = yield* Fiber.join(first)
        assert.strictEqual(res.status, 200, res.text)
        assert.strictEqual((yield* incoming(env, to)).length, 1)
      }),
    30_000
  )

  it.effect(
    "the same order id after success: the stored result again, byte for byte, nothing paid; another request under it is a new order",
    () =>
      Effect.gen(function* () {
        const env = yield* DirectTestEnv
        const { address, phrase } = yield* fundedWallet(env, "bip12", "v5r1", ton(20))
        const id = orderId("again")
        const body = { username: "repeatbuyer", amount: 100, seed: phrase, order_id: id }
        const first = yield* post(env, "/stars/buy", body)
        assert.strictEqual(first.status, 200, first.text)
        const balance = yield* balanceOf(env, address)
        const second = yield* post(env, "/stars/buy", body)
        assert.deepStrictEqual([second.status, second.text], [200, first.text])
        assert.strictEqual(yield* balanceOf(env, address), balance)
        const record = Option.getOrThrow(yield* latestRecord(env, id))
        assert.strictEqual((yield* fragmentPayments(env, record.ref!)).length, 1)
        // The same order id for another request (the first one finished) is a new order: it pays, and the id names it.
        const next = yield* post(env, "/stars/buy", { ...body, amount: 200 })
        assert.strictEqual(next.status, 200, next.text)
        assert.deepStrictEqual([next.body["order_id"], next.body["stars_amount"]], [id, 200])
        assert.isTrue((yield* balanceOf(env, address)) < balance)
        const latest = Option.getOrThrow(yield* latestRecord(env, id))
        assert.deepStrictEqual([latest.units, latest.attempts], [200, 2])
      }),
    30_000
  )

  it.effect(
    "without order_id, the Idempotency-Key header is the order id",
    () =>
      Effect.gen(function* () {
        const env = yield* DirectTestEnv
        const { phrase } = yield* fundedWallet(env, "bip12", "v4r2", ton(5))
        const to = freshAddress()
        const key = orderId("idem")
        const first = yield* call(
          env,
          "POST",
          "/coin/transfer",
          { to, amount: 1, seed: phrase },
          { "idempotency-key": key }
        )
        assert.deepStrictEqual([first.status, first.body["order_id"]], [200, key])
        const second = yield* call(
          env,
          "POST",
          "/coin/transfer",
          { to, amount: 1, seed: phrase },
          { "idempotency-key": key }
        )
        assert.strictEqual(second.text, first.text)
        assert.strictEqual((yield* incoming(env, to)).length, 1)
      }),
    30_000
  )

  it.effect(
    "the node's answer to the send is lost: the message is found on chain, paid once",
    () =>
      Effect.gen(function* () {
        const env = yield* DirectTestEnv
        const { address, phrase } = yield* fundedWallet(env, "ton24", "v5r1", ton(5))
        const to = freshAddress()
        env.faults.sends.push("lostAfterApply")
        const res = yield* post(env, "/coin/transfer", { to, amount: 2, seed: phrase })
        assert.strictEqual(res.status, 200, res.text)
        assert.strictEqual((yield* incoming(env, to)).length, 1)
        assert.strictEqual(ton(5) - (yield* balanceOf(env, address)), ton(2) + nano(res.body["fee"]))
      }),
    30_000
  )

  it.effect(
    "the chain becomes unreachable right after sending: USER_TRANSFER_FAIL, `unknown`, reconciled later, never paid twice",
    () =>
      Effect.gen(function* () {
        const env = yield* DirectTestEnv
        const { phrase } = yield* fundedWallet(env, "bip12", "v4r2", ton(5))
        const to = freshAddress()
        const id = orderId("down")
        env.faults.sends.push("lostAfterApplyThenDown")
        const res = yield* post(env, "/coin/transfer", { to, amount: 1, seed: phrase, order_id: id })
        env.faults.down = false
        assertFailure(res, 400, "USER_TRANSFER_FAIL", phrase)
        assert.strictEqual(res.body["order_id"], id)
        const open = Option.getOrThrow(yield* latestRecord(env, id))
        assert.deepStrictEqual([open.state, open.walletLocked, open.prepared !== null], ["unknown", false, true])
        assert.strictEqual(
          (yield* incoming(env, to)).length,
          1,
          "the money did leave: it must never be reported as not paid"
        )
        // The same order id again: reconciled on chain first, then the stored result; no second message.
        const again = yield* post(env, "/coin/transfer", { to, amount: 1, seed: phrase, order_id: id })
        assert.strictEqual(again.status, 200, again.text)
        assert.strictEqual(Option.getOrThrow(yield* latestRecord(env, id)).state, "done")
        assert.strictEqual((yield* incoming(env, to)).length, 1)
      }),
    30_000
  )

  it.effect(
    "a message that never landed is replaced only after its valid_until, and then pays once",
    () =>
      Effect.gen(function* () {
        const env = yield* DirectTestEnv
        const { address, phrase } = yield* fundedWallet(env, "ton24", "v4r2", ton(5))
        const to = freshAddress()
        const id = orderId("lost")
        env.faults.sends.push("lostBeforeApplyThenDown")
        const res = yield* post(env, "/coin/transfer", { to, amount: 1, seed: phrase, order_id: id })
        env.faults.down = false
        assertFailure(res, 400, "USER_TRANSFER_FAIL", phrase)
        const lost = Option.getOrThrow(yield* latestRecord(env, id)).prepared!
        // Before valid_until the old message could still execute: the order stays open.
        const early = yield* post(env, "/coin/transfer", { to, amount: 1, seed: phrase, order_id: id })
        assertFailure(early, 409, "PENDING_TRANSACTION", phrase)
        assert.strictEqual(yield* balanceOf(env, address), ton(5))
        yield* Effect.sleep(`${(lost.validUntil + 2) * 1000 - Date.now()} millis`)
        const late = yield* post(env, "/coin/transfer", { to, amount: 1, seed: phrase, order_id: id })
        assert.strictEqual(late.status, 200, late.text)
        const record = Option.getOrThrow(yield* latestRecord(env, id))
        assert.deepStrictEqual([record.attempts, record.prepared!.seqno], [2, lost.seqno])
        assert.notStrictEqual(record.prepared!.externalHash, lost.externalHash)
        assert.strictEqual((yield* incoming(env, to)).length, 1)
      }),
    30_000
  )

  it.effect(
    "paid on chain but Fragment does not deliver in time: MARKETPLACE_TIMEOUT 503, `unknown`, then the stored result",
    () =>
      Effect.gen(function* () {
        const env = yield* DirectTestEnv
        const { address, phrase } = yield* fundedWallet(env, "ton24", "v5r1", ton(20))
        const id = orderId("late")
        env.fragment.control.set({ neverFinish: true })
        const res = yield* post(env, "/premium/buy", {
          username: "latedelivery",
          duration: 3,
          seed: phrase,
          order_id: id
        })
        env.fragment.control.set({ neverFinish: false })
        assertFailure(res, 503, "MARKETPLACE_TIMEOUT", phrase)
        assert.match(String(res.body["message"]), /Paid on chain/)
        const open = Option.getOrThrow(yield* latestRecord(env, id))
        assert.strictEqual(open.state, "unknown")
        assert.isNotNull(open.txHash)
        const paid = ton(20) - (yield* balanceOf(env, address))
        assert.strictEqual(paid, open.payAmount! + open.fee!)
        // The worker's (or CLI's) reconcile settles it with the marketplace.
        const [settled] = yield* env.service.reconcile(id)
        assert.isDefined(settled)
        assert.strictEqual(settled!.state, "done")
        const again = yield* post(env, "/premium/buy", {
          username: "latedelivery",
          duration: 3,
          seed: phrase,
          order_id: id
        })
        assert.strictEqual(again.status, 200, again.text)
        assert.strictEqual(nano(again.body["cost"]), paid)
        assert.strictEqual((yield* fragmentPayments(env, open.ref!)).length, 1)
        assert.strictEqual(ton(20) - (yield* balanceOf(env, address)), paid)
      }),
    30_000
  )

  it.effect(
    "a process that died after sending: its wallet stays locked until reconciliation settles the order on chain",
    () =>
      Effect.gen(function* () {
        const env = yield* DirectTestEnv
        const { phrase } = yield* fundedWallet(env, "ton24", "v5r1", ton(5))
        const to = freshAddress()
        const id = orderId("crash")
        // What a request did before its process died: claimed, locked, signed, stored, sent. Nothing after.
        const records = yield* Effect.gen(function* () {
          return yield* DirectPurchaseRecords
        }).pipe(Effect.provide(PgDirectPurchaseRecords.layer), Effect.provideService(SqlClient, env.sql))
        const wallet = yield* env.chain.resolveWallet(Redacted.make(phrase))
        const now = new Date()
        const claimed = yield* records.claim(
          {
            orderId: id,
            kind: "transfer",
            fingerprint: yield* sha256Hex(JSON.stringify(["transfer", wallet.address, to, String(ton(1)), null, null])),
            network: "sandbox",
            walletAddress: wallet.address,
            walletVersion: wallet.version,
            recipient: to,
            amount: ton(1),
            units: null,
            comment: null
          },
          now
        )
        yield* records.transition(
          claimed.record.id,
          ["pending"],
          "sending",
          { lock: true, payTo: to, payAmount: ton(1) },
          now
        )
        const prepared = yield* env.chain.prepareTransfer(wallet, { to, amount: ton(1) })
        yield* records.transition(claimed.record.id, ["sending"], "sending", { prepared }, now)
        yield* env.chain.send(prepared)
        yield* env.sql`UPDATE direct_purchases SET updated_at = now() - interval '1 hour' WHERE id = ${claimed.record.id}`

        const blocked = yield* post(env, "/coin/transfer", { to: freshAddress(), amount: 1, seed: phrase })
        assertFailure(blocked, 409, "PENDING_TRANSACTION", phrase)
        const settled = yield* env.service.reconcileOpen(100)
        const mine = settled.find((r) => r.orderId === id)
        assert.deepStrictEqual([mine?.state, mine?.walletLocked, mine?.txHash !== null], ["done", false, true])
        const again = yield* post(env, "/coin/transfer", { to, amount: 1, seed: phrase, order_id: id })
        assert.deepStrictEqual([again.status, again.body["tx_hash"]], [200, mine?.txHash])
        assert.strictEqual((yield* incoming(env, to)).length, 1)
        const next = yield* post(env, "/coin/transfer", { to: freshAddress(), amount: 1, seed: phrase })
        assert.strictEqual(next.status, 200, next.text)
      }),
    30_000
  )

  it.effect(
    "a defect answers 500 CRITICAL_SERVER_ERROR with an id that is in the log, and nothing secret",
    () =>
      Effect.gen(function* () {
        const env = yield* DirectTestEnv
        const { address, phrase } = yield* fundedWallet(env, "bip12", "v5r1", ton(3))
        yield* env.sql`ALTER TABLE direct_purchases RENAME TO direct_purchases_away`
        const res = yield* post(env, "/coin/transfer", { to: freshAddress(), amount: 1, seed: phrase }).pipe(
          Effect.ensuring(Effect.orDie(env.sql`ALTER TABLE direct_purchases_away RENAME TO direct_purchases`))
        )
        assertFailure(res, 500, "CRITICAL_SERVER_ERROR", phrase)
        const errorId = /id ([A-Za-z0-9_-]+)/.exec(String(res.body["message"]))?.[1]
        assert.isDefined(errorId)
        assert.isTrue(env.logs.some((line) => line.includes(errorId!) && line.includes("defect")))
        assert.strictEqual(yield* balanceOf(env, address), ton(3))
      }),
    30_000
  )
})
