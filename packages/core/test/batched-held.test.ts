/**
 * A payment held for an operator (the single-payment engine's leftovers, migration 0026): the batch
 * engine answers its order an unknown outcome for the operators at once, with what is known, and
 * never quotes, signs or pays its key again.
 */
import { assert, describe, it } from "@effect/vitest"
import { Context, Effect, Layer, Option } from "effect"
import type { Nanoton } from "../src/ports/Blockchain.ts"
import { BatchedPurchases } from "../src/wallet/BatchedPurchases.ts"
import { makeBatchWorld, order, walletOf } from "./support/BatchWorld.ts"

const wallet = walletOf("v5r1")
const now = new Date("2026-03-01T10:00:00Z")
const note = "Held when batches took over: look for Ref#Rh among the hot wallet's outgoing messages"

describe("a held payment", () => {
  it.effect("answers Unknown for the operators at once and is never paid again", () =>
    Effect.gen(function* () {
      const world = yield* makeBatchWorld()
      const purchases = Context.get(yield* Layer.build(world.layer), BatchedPurchases)
      // Recorded and closed as the migration leaves it: held, with its evidence.
      const batch = yield* world.records.record(
        "sandbox",
        {
          wallet: wallet.address,
          seqno: 90,
          createdAt: 1_900_000_000,
          validUntil: 1_900_000_600,
          externalHash: "f".repeat(64),
          boc: "",
          transfers: [{ to: "EQfragment", amount: 1n as Nanoton, bodyHash: "Ref#Rh" }]
        },
        [
          {
            key: "key-h",
            walletAddress: wallet.address,
            kind: "stars",
            reqId: "req-h",
            ref: "Rh",
            payTo: "EQfragment",
            amount: 1n as Nanoton,
            validUntil: 1_900_000_600
          }
        ],
        now
      )
      yield* world.records.settle(
        batch.id,
        { state: "expired", txHash: null, fee: null },
        [{ key: "key-h", state: "held", error: note }],
        now
      )
      for (let i = 0; i < 2; i++) {
        assert.deepStrictEqual(yield* purchases.buy(wallet, order("h")), {
          _tag: "Unknown",
          error: note,
          ref: "Rh",
          chainState: "held",
          attentionNow: true
        })
      }
      assert.deepStrictEqual(world.refsSigned(), [])
      assert.strictEqual(Option.getOrThrow(yield* world.records.find("key-h")).state, "held")
    }).pipe(Effect.scoped)
  )
})
