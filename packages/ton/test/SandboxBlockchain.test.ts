import { PayerAccounts } from "@resale/core/direct/PayerAccounts.ts"
import { Blockchain } from "@resale/core/ports/Blockchain.ts"
import { assert, layer } from "@effect/vitest"
import { Address, Cell, contractAddress, loadStateInit } from "@ton/ton"
import { Effect, Layer } from "effect"
import { TonPayerAccounts } from "../src/PayerAccount.ts"
import { SandboxEnv } from "./support/layers.ts"
import { fundedWallet, transferScenarios } from "./support/scenarios.ts"
import { bip39Words12, ton } from "./support/wallets.ts"

layer(SandboxEnv, { timeout: "30 seconds" })("SandboxBlockchain (in-process TON VM)", (it) => {
  transferScenarios(it)
})

layer(TonPayerAccounts.layer.pipe(Layer.provideMerge(SandboxEnv)))("TonPayerAccounts", (it) => {
  it.effect("describes the resolved wallet on the adapter's network; the StateInit deploys to that address", () =>
    Effect.gen(function*() {
      const phrase = yield* bip39Words12
      const address = yield* fundedWallet(phrase, "v5r1", "bip39", ton(1))
      const wallet = yield* (yield* Blockchain).resolveWallet(phrase)
      const payer = yield* (yield* PayerAccounts).describe(wallet)
      assert.strictEqual(payer.address, Address.parse(address).toRawString())
      const init = loadStateInit(Cell.fromBase64(payer.walletStateInit).beginParse())
      assert.strictEqual(contractAddress(0, init).toRawString(), payer.address)
    }))
})
