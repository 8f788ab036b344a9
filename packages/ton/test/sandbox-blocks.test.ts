import { Blockchain } from "@resale/core/ports/Blockchain.ts"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { SandboxBlockchain } from "../src/SandboxBlockchain.ts"
import { makeTonCenterBlockchain } from "../src/TonCenterBlockchain.ts"
import { startToncenterServer } from "./support/ToncenterServer.ts"
import { fundedWallet } from "./support/scenarios.ts"
import { bip39Words12, freshAddress, ton } from "./support/wallets.ts"

// Long enough that the looks right after a send come before the block, even on a loaded machine.
const INTERVAL_MS = 1500

/** Asks `look` until it answers something else than Pending; how long that took. */
const timeUntilSettled = (look: Effect.Effect<{ readonly _tag: string }, unknown>) =>
  Effect.gen(function* () {
    const start = Date.now()
    let looks = 0
    while (true) {
      const status = yield* look
      looks++
      if (status._tag !== "Pending") return { status, ms: Date.now() - start, looks }
      yield* Effect.sleep("20 millis")
    }
  })

describe("SandboxBlockchain with a block interval", () => {
  it.live(
    "a sent message shows neither in the history nor in the state before its block, then Confirmed",
    () =>
      Effect.gen(function* () {
        const chain = yield* Blockchain
        const phrase = yield* bip39Words12
        yield* fundedWallet(phrase, "v5r1", "bip39", ton(3))
        const wallet = yield* chain.resolveWallet(phrase)
        const before = yield* chain.accountState(wallet.address)
        const prepared = yield* chain.prepareTransfer(wallet, { to: freshAddress(false), amount: ton(1) })
        yield* chain.send(prepared)
        // Right after the send: the mempool holds it, nothing changed on chain yet.
        assert.strictEqual((yield* chain.confirm(prepared))._tag, "Pending")
        assert.strictEqual((yield* chain.accountState(wallet.address)).balance, before.balance)
        const settled = yield* timeUntilSettled(chain.confirm(prepared))
        assert.strictEqual(settled.status._tag, "Confirmed")
        assert.isAbove(settled.looks, 1, "it took at least one more look")
        assert.isTrue(
          (yield* chain.accountState(wallet.address)).balance < before.balance - ton(1),
          "paid with the block"
        )
      }).pipe(Effect.provide(SandboxBlockchain.layerWith({ blockInterval: `${INTERVAL_MS} millis` }))),
    30_000
  )

  it.live(
    "through the toncenter endpoint: sendBoc answers at once, the transaction appears with the block; a replay is dropped",
    () =>
      Effect.gen(function* () {
        const sandbox = yield* SandboxBlockchain
        const server = yield* startToncenterServer(sandbox)
        const chain = makeTonCenterBlockchain({ endpoint: server.url, network: "mainnet", apiKey: Redacted.make("k") })
        const phrase = yield* bip39Words12
        yield* fundedWallet(phrase, "v4r2", "bip39", ton(3))
        const wallet = yield* chain.resolveWallet(phrase)
        const prepared = yield* chain.prepareTransfer(wallet, { to: freshAddress(false), amount: ton(1) })
        yield* chain.send(prepared)
        assert.strictEqual((yield* chain.confirm(prepared))._tag, "Pending")
        const settled = yield* timeUntilSettled(chain.confirm(prepared))
        assert.strictEqual(settled.status._tag, "Confirmed")
        // The same message again: accepted into the mempool, refused by its block (seqno used), never paid twice.
        const balance = yield* chain.balance(wallet.address)
        yield* chain.send(prepared)
        yield* Effect.sleep(`${INTERVAL_MS * 2} millis`)
        assert.strictEqual(yield* chain.balance(wallet.address), balance)
      }).pipe(Effect.provide(SandboxBlockchain.layerWith({ blockInterval: `${INTERVAL_MS} millis` }))),
    30_000
  )
})
