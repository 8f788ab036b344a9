/**
 * Batches on the real TON VM (@ton/sandbox), with blocks every 300 ms: one external message carries
 * many transfers; each transfer is judged by its own out message; a skipped action fails only its
 * transfer; the wallet's outgoing messages show each payment's comment (its `Ref#`).
 */
import { type BatchStatus, Blockchain } from "@resale/core/ports/Blockchain.ts"
import { assert, describe, it } from "@effect/vitest"
import { Address, beginCell } from "@ton/ton"
import { Effect } from "effect"
import { SandboxBlockchain, sandboxClient } from "../src/SandboxBlockchain.ts"
import { makeTonBlockchain } from "../src/TonBlockchain.ts"
import { fundedWallet } from "./support/scenarios.ts"
import { bip39Words12, freshAddress, milliTon, ton } from "./support/wallets.ts"

const payload = (ref: string) =>
  beginCell().storeUint(0, 32).storeStringTail(`50 Telegram Stars \n\nRef#${ref}`).endCell().toBoc().toString("base64")

const settled = <S extends { readonly _tag: string }>(look: Effect.Effect<S, unknown>) =>
  Effect.gen(function* () {
    while (true) {
      const status = yield* look
      if (status._tag !== "Pending") return status
      yield* Effect.sleep("50 millis")
    }
  })

const Env = SandboxBlockchain.layerWith({ blockInterval: "300 millis", expiryMarginSeconds: 1 })

const executed = (status: BatchStatus) => {
  assert(status._tag === "Executed", `expected Executed, got ${status._tag}`)
  return status
}

describe("batches on the sandbox chain (blocks every 300 ms)", () => {
  it.live(
    "V5R1: 40 transfers in one external message and one transaction, each with its Ref#; cheaper per transfer than one by one",
    () =>
      Effect.gen(function* () {
        const chain = yield* Blockchain
        const { emulator } = yield* SandboxBlockchain
        const phrase = yield* bip39Words12
        yield* fundedWallet(phrase, "v5r1", "bip39", ton(100))
        const wallet = yield* chain.resolveWallet(phrase)
        assert.strictEqual(chain.batchLimit(wallet.version), 255)
        const merchant = freshAddress(false)
        // The first message deploys the wallet: a single transfer, its fee measured too.
        const single = yield* chain.prepareTransfer(wallet, {
          to: merchant,
          amount: milliTon(1),
          payload: payload("first")
        })
        yield* chain.send(single)
        const first = yield* settled(chain.confirm(single))
        assert(first._tag === "Confirmed")
        const one = yield* chain.prepareTransfer(wallet, {
          to: merchant,
          amount: milliTon(1),
          payload: payload("second")
        })
        yield* chain.send(one)
        const oneStatus = yield* settled(chain.confirm(one))
        assert(oneStatus._tag === "Confirmed")

        const requests = Array.from({ length: 40 }, (_, i) => ({
          to: merchant,
          amount: milliTon(100 + i),
          payload: payload(`R${i}`)
        }))
        const batch = yield* chain.prepareBatch(wallet, requests)
        assert.strictEqual(batch.transfers.length, 40)
        // One message in flight per wallet: another batch waits for this one.
        assert.strictEqual((yield* Effect.flip(chain.prepareBatch(wallet, requests.slice(0, 1)))).reason, "Busy")
        const txsBefore = (yield* Effect.promise(() => emulator.getTransactions(Address.parse(wallet.address)))).length
        yield* chain.send(batch)
        const status = executed(yield* settled(chain.confirmBatch(batch)))
        assert.deepStrictEqual(
          status.sent,
          requests.map(() => true)
        )
        const txs = yield* Effect.promise(() => emulator.getTransactions(Address.parse(wallet.address)))
        assert.strictEqual(txs.length - txsBefore, 1, "one wallet transaction for the whole batch")

        const out = yield* chain.outgoing(wallet.address, batch.createdAt - 60)
        const refs = out.map((m) => /Ref#(\w+)/.exec(m.comment ?? "")?.[1]).filter((r) => r !== undefined)
        assert.includeMembers(
          refs,
          requests.map((_, i) => `R${i}`)
        )
        assert.isTrue(out.filter((m) => m.txHash === status.txHash).length === 40)
        console.log(
          `fees on the emulator: deploy+1 transfer ${first.fee}, 1 transfer ${oneStatus.fee}, ` +
            `batch of 40 ${status.fee} (${status.fee / 40n} per transfer)`
        )
        assert.isTrue(status.fee / 40n < oneStatus.fee, "a batched transfer costs less than a single one")
      }).pipe(Effect.provide(Env)),
    60_000
  )

  it.live(
    "funds short mid-batch: the skipped actions are reported not sent, the others paid",
    () =>
      Effect.gen(function* () {
        const { emulator } = yield* SandboxBlockchain
        // A node with a stale view of the balance lets the batch be signed; the wallet cannot cover all of it.
        const optimistic = makeTonBlockchain({
          ...sandboxClient(emulator, Effect.void),
          account: (address) =>
            Effect.map(sandboxClient(emulator, Effect.void).account(address), (a) => ({
              ...a,
              balance: a.balance + ton(1000)
            }))
        })
        const phrase = yield* bip39Words12
        yield* fundedWallet(phrase, "v5r1", "bip39", ton(3))
        const wallet = yield* optimistic.resolveWallet(phrase)
        const merchant = freshAddress(false)
        const requests = [ton(1), ton(1), ton(5), milliTon(200)].map((amount, i) => ({
          to: merchant,
          amount,
          payload: payload(`S${i}`)
        }))
        const batch = yield* optimistic.prepareBatch(wallet, requests)
        yield* optimistic.send(batch)
        const status = executed(yield* settled(optimistic.confirmBatch(batch)))
        assert.deepStrictEqual(status.sent, [true, true, false, true], "only the 5 TON action was skipped")
      }).pipe(Effect.provide(SandboxBlockchain.layerWith({ expiryMarginSeconds: 1 }))),
    60_000
  )

  it.live(
    "V4R2: at most 4 transfers per message",
    () =>
      Effect.gen(function* () {
        const chain = yield* Blockchain
        const phrase = yield* bip39Words12
        yield* fundedWallet(phrase, "v4r2", "bip39", ton(10))
        const wallet = yield* chain.resolveWallet(phrase)
        assert.strictEqual(chain.batchLimit("v4r2"), 4)
        const merchant = freshAddress(false)
        const requests = Array.from({ length: 5 }, (_, i) => ({
          to: merchant,
          amount: milliTon(10),
          payload: payload(`V${i}`)
        }))
        assert.strictEqual((yield* Effect.flip(chain.prepareBatch(wallet, requests))).reason, "InvalidAmount")
        const batch = yield* chain.prepareBatch(wallet, requests.slice(0, 4))
        yield* chain.send(batch)
        assert.deepStrictEqual(executed(yield* settled(chain.confirmBatch(batch))).sent, [true, true, true, true])
      }).pipe(Effect.provide(Env)),
    60_000
  )
})
