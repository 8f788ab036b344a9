/**
 * The direct purchase record store on real PostgreSQL: one claim per wallet and order id under
 * concurrency, one wallet lock per wallet, conditional transitions, superseding finished orders, the
 * signed message round trip.
 */
import { assert, layer } from "@effect/vitest"
import type { Nanoton } from "@resale/core/money/Nanoton.ts"
import type { PreparedTransfer } from "@resale/core/ports/Blockchain.ts"
import { DirectPurchaseRecords, type NewDirectPurchase } from "@resale/core/ports/DirectPurchaseRecords.ts"
import { PgDirectPurchaseRecords } from "@resale/store/PgDirectPurchaseRecords.ts"
import { IsolatedPostgres } from "@resale/store/testing/index.ts"
import { Effect, Layer, Option, Result } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

const Store = PgDirectPurchaseRecords.layer.pipe(Layer.provideMerge(IsolatedPostgres.layer))

const at = new Date("2030-01-01T00:00:00Z")
const order = (orderId: string, wallet = "UQwallet-a"): NewDirectPurchase => ({
  orderId,
  kind: "transfer",
  fingerprint: "a".repeat(64),
  network: "sandbox",
  walletAddress: wallet,
  walletVersion: "v4r2",
  recipient: "UQrecipient",
  amount: 1_500_000_000n as Nanoton,
  units: null,
  comment: "memo"
})

const prepared: PreparedTransfer = {
  wallet: "UQwallet-a",
  to: "UQrecipient",
  amount: 1_500_000_000n as Nanoton,
  bounce: false,
  seqno: 7,
  createdAt: 1_900_000_000,
  validUntil: 1_900_000_060,
  externalHash: "b".repeat(64),
  boc: "te6cckEBAQEAAgAAAEysuc0="
}

layer(Store, { timeout: "60 seconds", excludeTestServices: true })("PgDirectPurchaseRecords", (it) => {
  it.effect("concurrent claims of one order id by two wallets: exactly one Claimed per wallet", () =>
    Effect.gen(function* () {
      const records = yield* DirectPurchaseRecords
      // Two wallets race five claims each on one order id: one order per wallet, neither sees the other's.
      const claims = yield* Effect.forEach(
        Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? "UQwallet-a" : "UQwallet-b")),
        (wallet) => records.claim(order("dup-1", wallet), at),
        { concurrency: "unbounded" }
      )
      for (const wallet of ["UQwallet-a", "UQwallet-b"]) {
        const mine = claims.filter((c) => c.record.walletAddress === wallet)
        assert.strictEqual(mine.filter((c) => c._tag === "Claimed").length, 1)
        assert.strictEqual(new Set(mine.map((c) => c.record.id)).size, 1)
      }
      const sql = yield* SqlClient
      const [row] = yield* sql<{ n: bigint }>`SELECT count(*) AS n FROM direct_purchases WHERE order_id = 'dup-1'`
      assert.strictEqual(row!.n, 2n)
    })
  )

  it.effect("one wallet lock per wallet: the second order of the same wallet is refused until the first releases", () =>
    Effect.gen(function* () {
      const records = yield* DirectPurchaseRecords
      const lock_1 = (yield* records.claim(order("lock-1", "UQwallet-lock"), at)).record.id
      const lock_2 = (yield* records.claim(order("lock-2", "UQwallet-lock"), at)).record.id
      const lock_3 = (yield* records.claim(order("lock-3", "UQwallet-other"), at)).record.id
      const first = yield* records.transition(lock_1, ["pending"], "sending", { lock: true }, at)
      assert.isTrue(first.walletLocked)
      const busy = yield* Effect.flip(records.transition(lock_2, ["pending"], "sending", { lock: true }, at))
      assert.strictEqual(busy._tag, "DirectWalletBusy")
      assert.strictEqual((yield* records.find(lock_2)).pipe(Option.getOrThrow).state, "pending", "nothing written")
      assert.isTrue((yield* records.transition(lock_3, ["pending"], "sending", { lock: true }, at)).walletLocked)
      // Moving to unknown releases the lock, so the wallet can pay again (its seqno still guards the chain).
      const released = yield* records.transition(lock_1, ["sending"], "unknown", { errorReason: "TransferFailed" }, at)
      assert.isFalse(released.walletLocked)
      assert.isTrue((yield* records.transition(lock_2, ["pending"], "sending", { lock: true }, at)).walletLocked)
    })
  )

  it.effect("transitions are conditional; the signed message round-trips; done needs its transaction", () =>
    Effect.gen(function* () {
      const records = yield* DirectPurchaseRecords
      const flow_1 = (yield* records.claim(order("flow-1", "UQwallet-flow"), at)).record.id
      const conflict = yield* Effect.flip(records.transition(flow_1, ["sending"], "sent", {}, at))
      assert.deepStrictEqual(
        [conflict._tag, conflict._tag === "DirectRecordConflict" ? conflict.state : ""],
        ["DirectRecordConflict", "pending"]
      )
      const missing = yield* Effect.flip(records.transition(-1, ["pending"], "failed", {}, at))
      assert.strictEqual(missing._tag, "DirectRecordConflict")
      yield* records.transition(
        flow_1,
        ["pending"],
        "sending",
        { lock: true, payTo: "UQrecipient", payAmount: prepared.amount },
        at
      )
      const stored = yield* records.transition(flow_1, ["sending"], "sending", { prepared }, at)
      assert.deepStrictEqual(stored.prepared, prepared)
      const sql = yield* SqlClient
      const [cols] = yield* sql<{ seqno: bigint; external_hash: string; valid_until: bigint }>`
        SELECT seqno, external_hash, valid_until FROM direct_purchases WHERE id = ${flow_1}`
      assert.deepStrictEqual(
        [cols!.seqno, cols!.external_hash, cols!.valid_until],
        [7n, "b".repeat(64), 1_900_000_060n]
      )
      // The database itself refuses a `done` without its transaction.
      const incomplete = yield* Effect.exit(records.transition(flow_1, ["sending"], "done", {}, at))
      assert.strictEqual(incomplete._tag, "Failure")
      const done = yield* records.transition(
        flow_1,
        ["sending"],
        "done",
        {
          txHash: "c".repeat(64),
          fee: 3_110_000n as Nanoton,
          completedAt: at
        },
        at
      )
      assert.deepStrictEqual(
        [done.state, done.walletLocked, done.fee, done.payAmount],
        ["done", false, 3_110_000n, 1_500_000_000n]
      )
    })
  )

  it.effect("supersede: only a finished order gives its id to a new one, once; the old record stays", () =>
    Effect.gen(function* () {
      const records = yield* DirectPurchaseRecords
      const first = (yield* records.claim(order("retry-1", "UQwallet-retry"), at)).record
      assert.isTrue(
        Option.isNone(yield* records.supersede(first, order("retry-1", "UQwallet-retry"), at)),
        "pending is never superseded"
      )
      const failed = yield* records.transition(
        first.id,
        ["pending"],
        "failed",
        { errorReason: "InsufficientFunds", errorMessage: "low" },
        at
      )
      const both = yield* Effect.all(
        [
          records.supersede(failed, { ...order("retry-1", "UQwallet-retry"), comment: "second" }, at),
          records.supersede(failed, { ...order("retry-1", "UQwallet-retry"), comment: "second" }, at)
        ],
        { concurrency: 2 }
      )
      assert.strictEqual(both.filter(Option.isSome).length, 1)
      const latest = Option.getOrThrow(
        yield* records.findLatest({ network: "sandbox", walletAddress: "UQwallet-retry", orderId: "retry-1" })
      )
      assert.deepStrictEqual([latest.state, latest.comment, latest.errorReason], ["pending", "second", null])
      assert.deepStrictEqual((yield* records.find(first.id)).pipe(Option.getOrThrow).errorReason, "InsufficientFunds")
      assert.strictEqual((yield* records.findByOrderId("retry-1")).length, 2)
    })
  )

  it.effect("listUnresolved: unknown ones always, in-flight ones only when stale", () =>
    Effect.gen(function* () {
      const records = yield* DirectPurchaseRecords
      const old = new Date("2029-12-31T23:00:00Z")
      const open_stale = (yield* records.claim(order("open-stale", "UQw-open-1"), old)).record.id
      const open_fresh = (yield* records.claim(order("open-fresh", "UQw-open-2"), at)).record.id
      const open_unknown = (yield* records.claim(order("open-unknown", "UQw-open-3"), at)).record.id
      yield* records.transition(open_unknown, ["pending"], "unknown", {}, at)
      const open = yield* records.listUnresolved(new Date("2029-12-31T23:30:00Z"), 100)
      const ids = open.map((r) => r.orderId)
      assert.isTrue(ids.includes("open-stale") && ids.includes("open-unknown"))
      assert.isFalse(ids.includes("open-fresh"))
      const r = yield* Effect.result(records.transition(open_fresh, ["done"], "failed", {}, at))
      assert.isTrue(Result.isFailure(r))
    })
  )
})
