import { assert } from "@effect/vitest"
import type { Nanoton } from "@resale/core"
import { DirectPurchaseRecords, type NewDirectPurchase, type PreparedTransfer, Transactor } from "@resale/core/ports"
import { Effect, Option } from "effect"
import { at, type StoreTest, t0 } from "./support.ts"

const order = (
  orderId: string,
  wallet = "UQ-wallet-a",
  kind: NewDirectPurchase["kind"] = "stars"
): NewDirectPurchase => ({
  orderId,
  kind,
  fingerprint: "f".repeat(64),
  network: "sandbox",
  walletAddress: wallet,
  walletVersion: "v5r1",
  recipient: "durov",
  amount: null,
  units: 50,
  comment: null
})

const signed: PreparedTransfer = {
  wallet: "UQ-wallet-a",
  to: "UQ-marketplace",
  amount: 9_223_372_036_854_775_807n as Nanoton,
  bounce: true,
  seqno: 3,
  createdAt: 1_900_000_000,
  validUntil: 1_900_000_060,
  externalHash: "e".repeat(64),
  boc: "te6cckEBAQEAAgAAAEysuc0="
}

export const directPurchasesContract = (test: StoreTest) => {
  test(
    "DirectPurchaseRecords: one claim per wallet and order id, conditional transitions, the signed message kept exactly",
    Effect.gen(function* () {
      const records = yield* DirectPurchaseRecords
      const claimed = yield* records.claim(order("o-1"), t0)
      assert.strictEqual(claimed._tag, "Claimed")
      const id = claimed.record.id
      const again = yield* records.claim({ ...order("o-1"), units: 999 }, at(1))
      assert.deepStrictEqual([again._tag, again.record.id, again.record.units], ["Existing", id, 50])
      // Another wallet's order id of the same text is its own order: it sees nothing of the first.
      const other = yield* records.claim(order("o-1", "UQ-wallet-b"), at(1))
      assert.strictEqual(other._tag, "Claimed")
      assert.notStrictEqual(other.record.id, id)
      const sending = yield* records.transition(
        id,
        ["pending"],
        "sending",
        { lock: true, payTo: "UQ-marketplace", payAmount: signed.amount },
        at(2)
      )
      assert.isTrue(sending.walletLocked)
      const withMessage = yield* records.transition(id, ["sending"], "sending", { prepared: signed }, at(3))
      assert.deepStrictEqual(withMessage.prepared, signed)
      const wrong = yield* Effect.flip(records.transition(id, ["pending"], "failed", {}, at(4)))
      assert.strictEqual(wrong._tag, "DirectRecordConflict")
      const done = yield* records.transition(
        id,
        ["sending"],
        "done",
        { txHash: "ab".repeat(32), fee: 1000n as Nanoton, completedAt: at(5) },
        at(5)
      )
      assert.isFalse(done.walletLocked)
      assert.deepStrictEqual(Option.getOrThrow(yield* records.find(id)).prepared, signed)
      const latest = yield* records.findLatest({ network: "sandbox", walletAddress: "UQ-wallet-a", orderId: "o-1" })
      assert.strictEqual(Option.getOrThrow(latest).id, id)
      assert.sameMembers(
        (yield* records.findByOrderId("o-1")).map((r) => r.id),
        [id, other.record.id]
      )
      const missing = yield* Effect.flip(records.transition(-1, ["pending"], "failed", {}, at(6)))
      assert.strictEqual(missing._tag, "DirectRecordConflict")
    })
  )

  test(
    "DirectPurchaseRecords: one wallet lock per wallet, refused without spoiling a surrounding transaction; finished ids superseded once",
    Effect.gen(function* () {
      const records = yield* DirectPurchaseRecords
      const tx = yield* Transactor
      const a = (yield* records.claim(order("a"), t0)).record.id
      const b = (yield* records.claim(order("b"), t0)).record.id
      const c = (yield* records.claim(order("c", "UQ-wallet-b"), t0)).record.id
      yield* records.transition(a, ["pending"], "sending", { lock: true }, at(1))
      const busy = yield* tx.withTransaction(
        Effect.gen(function* () {
          const refused = yield* Effect.flip(records.transition(b, ["pending"], "sending", { lock: true }, at(2)))
          // The same transaction goes on working after the refusal.
          yield* records.transition(c, ["pending"], "sending", { lock: true }, at(2))
          return refused
        })
      )
      assert.strictEqual(busy._tag, "DirectWalletBusy")
      assert.strictEqual(Option.getOrThrow(yield* records.find(b)).state, "pending")
      assert.isTrue(Option.getOrThrow(yield* records.find(c)).walletLocked)
      // Failing releases the lock, and a failed order's id may run a new order (once: the old one is retired).
      const failed = yield* records.transition(a, ["sending"], "failed", { errorReason: "Expired" }, at(3))
      assert.isTrue((yield* records.transition(b, ["pending"], "sending", { lock: true }, at(4))).walletLocked)
      const next = Option.getOrThrow(yield* records.supersede(failed, { ...order("a"), units: 75 }, at(5)))
      assert.deepStrictEqual([next.state, next.units, next.orderId], ["pending", 75, "a"])
      assert.notStrictEqual(next.id, a)
      assert.isTrue(Option.isNone(yield* records.supersede(failed, order("a"), at(6))))
      // A running one is never superseded; the retired one keeps its failure.
      assert.isTrue(Option.isNone(yield* records.supersede(next, order("a"), at(6))))
      assert.strictEqual(Option.getOrThrow(yield* records.find(a)).errorReason, "Expired")
      const claimAgain = yield* records.claim(order("a"), at(7))
      assert.deepStrictEqual([claimAgain._tag, claimAgain.record.id], ["Existing", next.id])
      assert.deepStrictEqual((yield* records.listUnresolved(at(4), 10)).map((r) => r.orderId).sort(), ["b", "c"])
    })
  )
  test(
    "DirectPurchaseRecords: list pages every record newest first, filtered by state and kind, with the full count",
    Effect.gen(function* () {
      const records = yield* DirectPurchaseRecords
      // Five records a minute apart, one wallet each (no lock contention), in several states and kinds.
      const p1 = (yield* records.claim(order("p-1", "UQ-w1", "stars"), at(0))).record.id
      const p2 = (yield* records.claim(order("p-2", "UQ-w2", "transfer"), at(60_000))).record.id
      const p3 = (yield* records.claim(order("p-3", "UQ-w3", "stars"), at(120_000))).record.id
      yield* records.claim(order("p-4", "UQ-w4", "premium"), at(180_000))
      yield* records.claim(order("p-5", "UQ-w5", "stars"), at(240_000))
      yield* records.transition(p1, ["pending"], "failed", { errorReason: "Rejected" }, at(300_000))
      yield* records.transition(
        p3,
        ["pending"],
        "sending",
        { lock: true, payTo: "UQ-marketplace", payAmount: 5n as Nanoton },
        at(300_000)
      )
      yield* records.transition(
        p3,
        ["sending"],
        "done",
        { txHash: "cd".repeat(32), fee: 7n as Nanoton, ref: "Ref#3", completedAt: at(301_000) },
        at(301_000)
      )
      yield* records.transition(p2, ["pending"], "unknown", {}, at(300_000))

      const all = yield* records.list({}, { offset: 0, limit: 10 })
      assert.deepStrictEqual(
        all.items.map((r) => r.orderId),
        ["p-5", "p-4", "p-3", "p-2", "p-1"]
      )
      assert.strictEqual(all.total, 5)
      // A finished payment comes back with everything an operator reads: fee, tx hash, Ref#.
      const done = all.items.find((r) => r.orderId === "p-3")!
      assert.deepStrictEqual([done.state, done.fee, done.txHash, done.ref], ["done", 7n, "cd".repeat(32), "Ref#3"])

      const second = yield* records.list({}, { offset: 2, limit: 2 })
      assert.deepStrictEqual(
        second.items.map((r) => r.orderId),
        ["p-3", "p-2"]
      )
      assert.strictEqual(second.total, 5)
      const past = yield* records.list({}, { offset: 9, limit: 2 })
      assert.deepStrictEqual(past, { items: [], total: 5 })

      const stars = yield* records.list({ kind: "stars" }, { offset: 0, limit: 10 })
      assert.deepStrictEqual(
        stars.items.map((r) => r.orderId),
        ["p-5", "p-3", "p-1"]
      )
      assert.strictEqual(stars.total, 3)
      const pending = yield* records.list({ state: "pending" }, { offset: 0, limit: 1 })
      assert.deepStrictEqual(
        pending.items.map((r) => r.orderId),
        ["p-5"]
      )
      assert.strictEqual(pending.total, 2)
      const pendingStars = yield* records.list({ state: "pending", kind: "stars" }, { offset: 0, limit: 10 })
      assert.deepStrictEqual(
        pendingStars.items.map((r) => r.orderId),
        ["p-5"]
      )
      assert.deepStrictEqual(yield* records.list({ state: "done", kind: "transfer" }, { offset: 0, limit: 10 }), {
        items: [],
        total: 0
      })
    })
  )
}
