import { assert } from "@effect/vitest"
import { DirectPurchaseRecords, type Nanoton, type NewDirectPurchase, type PreparedTransfer, Transactor } from "@resale/core"
import { Effect, Option } from "effect"
import { at, type StoreTest, t0 } from "./support.ts"

const order = (orderId: string, wallet = "UQ-wallet-a"): NewDirectPurchase => ({
  orderId,
  kind: "stars",
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
  test("DirectPurchaseRecords: one claim per order id, conditional transitions, the signed message kept exactly", Effect.gen(function*() {
    const records = yield* DirectPurchaseRecords
    const claimed = yield* records.claim(order("o-1"), t0)
    assert.strictEqual(claimed._tag, "Claimed")
    const again = yield* records.claim({ ...order("o-1"), units: 999 }, at(1))
    assert.strictEqual(again._tag, "Existing")
    assert.strictEqual(again.record.units, 50)
    const sending = yield* records.transition("o-1", ["pending"], "sending", { lock: true, payTo: "UQ-marketplace", payAmount: signed.amount }, at(2))
    assert.isTrue(sending.walletLocked)
    const withMessage = yield* records.transition("o-1", ["sending"], "sending", { prepared: signed }, at(3))
    assert.deepStrictEqual(withMessage.prepared, signed)
    const wrong = yield* Effect.flip(records.transition("o-1", ["pending"], "failed", {}, at(4)))
    assert.strictEqual(wrong._tag, "DirectRecordConflict")
    const done = yield* records.transition("o-1", ["sending"], "done", { txHash: "ab".repeat(32), fee: 1000n as Nanoton, completedAt: at(5) }, at(5))
    assert.isFalse(done.walletLocked)
    assert.deepStrictEqual(Option.getOrThrow(yield* records.find("o-1")).prepared, signed)
    const missing = yield* Effect.flip(records.transition("nope", ["pending"], "failed", {}, at(6)))
    assert.strictEqual(missing._tag, "DirectRecordConflict")
  }))

  test("DirectPurchaseRecords: one wallet lock per wallet, refused without spoiling a surrounding transaction", Effect.gen(function*() {
    const records = yield* DirectPurchaseRecords
    const tx = yield* Transactor
    yield* records.claim(order("a"), t0)
    yield* records.claim(order("b"), t0)
    yield* records.claim(order("c", "UQ-wallet-b"), t0)
    yield* records.transition("a", ["pending"], "sending", { lock: true }, at(1))
    const busy = yield* tx.withTransaction(Effect.gen(function*() {
      const refused = yield* Effect.flip(records.transition("b", ["pending"], "sending", { lock: true }, at(2)))
      // The same transaction goes on working after the refusal.
      yield* records.transition("c", ["pending"], "sending", { lock: true }, at(2))
      return refused
    }))
    assert.strictEqual(busy._tag, "DirectWalletBusy")
    assert.strictEqual(Option.getOrThrow(yield* records.find("b")).state, "pending")
    assert.isTrue(Option.getOrThrow(yield* records.find("c")).walletLocked)
    // Failing releases the lock, and a failed order may restart once.
    yield* records.transition("a", ["sending"], "failed", { errorReason: "Expired" }, at(3))
    assert.isTrue((yield* records.transition("b", ["pending"], "sending", { lock: true }, at(4))).walletLocked)
    const restarted = Option.getOrThrow(yield* records.restart(order("a"), at(5)))
    assert.strictEqual(restarted.state, "pending")
    assert.strictEqual(restarted.attempts, 2)
    assert.isNull(restarted.errorReason)
    assert.isTrue(Option.isNone(yield* records.restart(order("a"), at(6))))
    assert.deepStrictEqual((yield* records.listUnresolved(at(4), 10)).map((r) => r.orderId).sort(), ["b", "c"])
  }))
}
