/**
 * On real PostgreSQL: a batch and its payments are stored in one statement each way (a batch carries
 * up to 255): a key already open or paid refuses the whole batch and stores nothing of it; a failed
 * key may be paid again by a later batch; settlements apply per key, in the batch's order.
 */
import { assert, describe, it } from "@effect/vitest"
import { Nanoton } from "@resale/core/money/Nanoton.ts"
import type { PreparedBatch } from "@resale/core/ports/Blockchain.ts"
import { type NewWalletPayment, WalletPayments } from "@resale/core/ports/WalletPayments.ts"
import { Effect, Option } from "effect"
import { IsolatedPostgres } from "../src/testing/IsolatedPostgres.ts"

const now = new Date(Date.UTC(2026, 10, 26, 8, 0, 0))
const WALLET = "UQhot"
const run = <A, E>(body: Effect.Effect<A, E, WalletPayments>) => body.pipe(Effect.provide(IsolatedPostgres.layerStore))

const prepared = (seqno: number, n: number): PreparedBatch => ({
  wallet: WALLET,
  seqno,
  createdAt: 1_790_000_000,
  validUntil: 1_790_000_600,
  externalHash: String(seqno).padStart(64, "0"),
  boc: "te6cc",
  transfers: Array.from({ length: n }, () => ({
    to: "UQfragment",
    amount: Nanoton.make(460_900_000n),
    bodyHash: "ab".repeat(32)
  }))
})

const payment = (key: string): NewWalletPayment => ({
  key,
  walletAddress: WALLET,
  kind: "stars",
  reqId: `req-${key}`,
  ref: `Ref${key}`,
  payTo: "UQfragment",
  amount: Nanoton.make(460_900_000n),
  validUntil: 1_790_000_600
})

describe("wallet payments (real PostgreSQL)", () => {
  it.effect(
    "a batch of 255 in order; a paid key refuses a later batch whole; a failed key is paid again",
    () =>
      run(
        Effect.gen(function* () {
          const records = yield* WalletPayments
          const keys = Array.from({ length: 255 }, (_, i) => `k${i}`)
          const first = yield* records.record("sandbox", prepared(1, 255), keys.map(payment), now)
          const [open] = yield* records.openBatches(WALLET)
          assert.deepStrictEqual(
            open?.payments.map((p) => p.key),
            keys,
            "stored in the batch's order"
          )
          yield* records.settle(
            first.id,
            { state: "executed", txHash: "c".repeat(64), fee: Nanoton.make(1n) },
            keys.map((key, i) =>
              i === 7 ? { key, state: "failed", error: "skipped" } : { key, state: "paid", txHash: "c".repeat(64) }
            ),
            now
          )
          assert.strictEqual((yield* records.findMany(keys)).filter((p) => p.state === "paid").length, 254)

          // k3 is paid: the batch carrying it is refused, and its other key is not stored.
          const refused = yield* Effect.flip(
            records.record("sandbox", prepared(2, 2), [payment("fresh"), payment("k3")], now)
          )
          assert.strictEqual(refused._tag, "WalletBatchBusy")
          assert.isTrue(Option.isNone(yield* records.find("fresh")))
          assert.deepStrictEqual(yield* records.openBatches(WALLET), [])

          // k7 failed (nothing paid): a later batch pays it.
          const again = yield* records.record("sandbox", prepared(2, 2), [payment("fresh"), payment("k7")], now)
          const retried = yield* records.findMany(["k7", "fresh", "unknown"])
          assert.deepStrictEqual(retried.map((p) => [p.key, p.state, p.batchId]).sort(), [
            ["fresh", "open", again.id],
            ["k7", "open", again.id]
          ])
        })
      ),
    60_000
  )
})
