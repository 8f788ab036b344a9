/**
 * Receipts by content, on real PostgreSQL through the core's services: the same file again (any
 * amount, any user) and an amount within the tolerance of a recent credit wait for an operator.
 */
import { assert, describe, it } from "@effect/vitest"
import { TopupService } from "@resale/core"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { createHash } from "node:crypto"
import { PgStore } from "../src/PgStore.ts"
import { IsolatedPostgres } from "../src/testing/IsolatedPostgres.ts"
import { booked, newUser } from "./contract/support.ts"

const Live = TopupService.layer.pipe(
  Layer.provideMerge(PgStore.layer.pipe(Layer.provideMerge(IsolatedPostgres.make(4))))
)

const photo = (n: number) => new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, n])

describe("receipts by content (real PostgreSQL)", () => {
  it.effect(
    "the same file from another user for another amount is held as SameFile; the hash is stored",
    () =>
      Effect.gen(function* () {
        const topups = yield* TopupService
        const [alice, bob] = yield* Effect.all([newUser(1), newUser(2)])
        const file = photo(1)
        const first = yield* topups.createWithReceipt(alice.id, 30_000, file)
        yield* topups.approve(first.id)
        const sql = yield* SqlClient
        const [row] = yield* sql<{ receipt_sha256: string }>`SELECT receipt_sha256 FROM topups WHERE id = ${first.id}`
        assert.strictEqual(row?.receipt_sha256, createHash("sha256").update(file).digest("hex"))
        // Bob sends the very same file, claiming 45,000: held, naming Alice's top-up.
        const again = yield* topups.createWithReceipt(bob.id, 45_000, file)
        const hint = Option.getOrThrow(yield* topups.possibleDuplicate(again))
        assert.deepStrictEqual([hint.of.id, hint.reason], [first.id, "SameFile"])
        const refused = yield* Effect.flip(topups.approve(again.id))
        assert.deepStrictEqual(
          [
            refused._tag,
            refused._tag === "TopupPossibleDuplicate" && refused.reason,
            refused._tag === "TopupPossibleDuplicate" && refused.duplicateOf
          ],
          ["TopupPossibleDuplicate", "SameFile", first.id]
        )
        assert.deepStrictEqual(yield* booked(bob.id), { balance: 0, sum: 0, entries: 0 })
        // The operator who checked it is a second payment can still credit it.
        assert.strictEqual((yield* topups.approve(again.id, "checked", { confirmDuplicate: true })).status, "paid")
        // A file seen on a rejected top-up is held too: a second try with the same picture.
        const tried = yield* topups.createWithReceipt(bob.id, 10_000, photo(2))
        yield* topups.reject(tried.id, "fake")
        const retry = yield* topups.createWithReceipt(bob.id, 12_000, photo(2))
        assert.strictEqual(Option.getOrThrow(yield* topups.possibleDuplicate(retry)).reason, "SameFile")
      }).pipe(Effect.provide(Live)),
    60_000
  )

  it.effect(
    "30,001 after a credited 30,000 is held as NearAmount; 32,000 is not",
    () =>
      Effect.gen(function* () {
        const topups = yield* TopupService
        const alice = yield* newUser(3)
        const credited = yield* topups.createWithReceipt(alice.id, 30_000, photo(10))
        yield* topups.approve(credited.id)
        const near = yield* topups.createWithReceipt(alice.id, 30_001, photo(11))
        const refused = yield* Effect.flip(topups.approve(near.id))
        assert.deepStrictEqual(
          [refused._tag, refused._tag === "TopupPossibleDuplicate" && refused.reason],
          ["TopupPossibleDuplicate", "NearAmount"]
        )
        assert.deepStrictEqual(yield* booked(alice.id), { balance: 30_000, sum: 30_000, entries: 1 })
        const far = yield* topups.createWithReceipt(alice.id, 32_000, photo(12))
        assert.isTrue(Option.isNone(yield* topups.possibleDuplicate(far)))
        assert.strictEqual((yield* topups.approve(far.id)).status, "paid")
      }).pipe(Effect.provide(Live)),
    60_000
  )
})
