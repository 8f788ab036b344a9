import { PayerAccounts } from "@resale/core/ports/PayerAccounts.ts"
import { Blockchain } from "@resale/core/ports/Blockchain.ts"
import { assert, layer } from "@effect/vitest"
import { Address, Cell, contractAddress, loadStateInit } from "@ton/ton"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { TonPayerAccounts } from "../src/PayerAccount.ts"
import { SandboxBlockchain, sandboxClient } from "../src/SandboxBlockchain.ts"
import { makeTonBlockchain } from "../src/TonBlockchain.ts"
import { SandboxEnv } from "./support/layers.ts"
import { fundedWallet, transferScenarios } from "./support/scenarios.ts"
import { atRealTime, bip39Words12, freshAddress, ton } from "./support/wallets.ts"

const Env = TonPayerAccounts.layer.pipe(Layer.provideMerge(SandboxEnv))

layer(Env, { timeout: "30 seconds" })("SandboxBlockchain (in-process TON VM)", (it) => {
  transferScenarios(it)

  it.effect(
    "TonPayerAccounts describes the resolved wallet on the adapter's network; the StateInit deploys to that address",
    () =>
      Effect.gen(function* () {
        const phrase = yield* bip39Words12
        const address = yield* fundedWallet(phrase, "v5r1", "bip39", ton(1))
        const wallet = yield* (yield* Blockchain).resolveWallet(phrase)
        const payer = yield* (yield* PayerAccounts).describe(wallet)
        assert.strictEqual(payer.address, Address.parse(address).toRawString())
        const init = loadStateInit(Cell.fromBase64(payer.walletStateInit).beginParse())
        assert.strictEqual(contractAddress(0, init).toRawString(), payer.address)
      })
  )

  it.effect("a seqno taken by another message is Superseded once dead, never while the history lags", () =>
    Effect.gen(function* () {
      yield* atRealTime
      const { emulator } = yield* SandboxBlockchain
      const here = yield* Blockchain
      const elsewhere = makeTonBlockchain(sandboxClient(emulator, Effect.void)) // the phrase in another app
      const phrase = yield* bip39Words12
      yield* fundedWallet(phrase, "v4r2", "bip39", ton(3))
      const wallet = yield* here.resolveWallet(phrase)
      const mine = yield* here.prepareTransfer(wallet, { to: freshAddress(false), amount: ton(1) })
      const theirs = yield* elsewhere.prepareTransfer(wallet, { to: freshAddress(false), amount: ton(1) })
      assert.strictEqual(theirs.seqno, mine.seqno)
      yield* elsewhere.send(theirs)
      assert.strictEqual((yield* elsewhere.confirm(theirs))._tag, "Confirmed")
      assert.strictEqual((yield* here.confirm(mine))._tag, "Pending", "seqno used, but valid_until not passed")

      yield* TestClock.adjust("5 minutes")
      const lagging = makeTonBlockchain({
        ...sandboxClient(emulator, Effect.void),
        transactions: () => Effect.succeed([]) // an index that has not caught up with the state
      })
      const [stale, settled, late] = yield* Effect.gen(function* () {
        emulator.now = mine.validUntil + 11
        return [yield* lagging.confirm(mine), yield* here.confirm(mine), yield* Effect.flip(here.send(mine))] as const
      }).pipe(
        Effect.ensuring(
          Effect.sync(() => {
            emulator.now = undefined
          })
        )
      )
      assert.strictEqual(stale._tag, "Pending")
      assert.deepStrictEqual(settled, { _tag: "Failed", reason: "Superseded" })
      assert.strictEqual(late.reason, "Rejected")
    })
  )
})
