/**
 * `Blockchain.walletAccount`: a wallet named only by its address is described from its state on chain
 * (version from the code, key from the data), exactly as a TON Connect wallet app describes itself, so
 * the wallet road can quote for it; an address that never sent anything or holds another contract is
 * not described. On the emulator adapter and on the toncenter adapter (loopback toncenter).
 */
import { assert, describe, it } from "@effect/vitest"
import { Blockchain } from "@resale/core/ports/Blockchain.ts"
import { nanoton } from "@resale/core/money/Nanoton.ts"
import { keyPairFromSeed } from "@ton/crypto"
import { Address, beginCell, storeStateInit } from "@ton/ton"
import { Effect, type Layer } from "effect"
import { randomBytes } from "node:crypto"
import { verifyAccount } from "../src/PayerAccount.ts"
import { SandboxBlockchain } from "../src/SandboxBlockchain.ts"
import { signedExternal, walletContract } from "../src/WalletContracts.ts"
import { SandboxEnv, ToncenterEnv } from "./support/layers.ts"

const ENVIRONMENTS: ReadonlyArray<readonly [string, Layer.Layer<Blockchain | SandboxBlockchain, unknown>]> = [
  ["emulator", SandboxEnv],
  ["toncenter", ToncenterEnv]
]

/** A new wallet of `version`, funded; `deploy` sends one transfer from it (as its first use does). */
const newWallet = (version: "v4r2" | "v5r1", deploy: boolean) =>
  Effect.gen(function* () {
    const chain = yield* Blockchain
    const sandbox = yield* SandboxBlockchain
    const key = keyPairFromSeed(randomBytes(32))
    const contract = walletContract(version, key.publicKey, -239)
    yield* sandbox.fund(contract.address.toString({ bounceable: false }), nanoton(2_000_000_000n))
    if (deploy) {
      const cell = yield* signedExternal({
        contract,
        key,
        seqno: 0,
        validUntil: Math.floor(Date.now() / 1000) + 60,
        deploy: true,
        messages: [{ to: new Address(0, Buffer.alloc(32, 9)), value: 10_000_000n, bounce: false, body: undefined }]
      })
      yield* chain.send({ boc: cell.toBoc().toString("base64") })
    }
    return { key, contract }
  })

for (const [name, env] of ENVIRONMENTS) {
  describe(`walletAccount (${name})`, () => {
    for (const version of ["v4r2", "v5r1"] as const) {
      it.effect(`a ${version} wallet that has sent is described as its wallet app describes it`, () =>
        Effect.gen(function* () {
          const chain = yield* Blockchain
          const { key, contract } = yield* newWallet(version, true)
          const friendly = contract.address.toString({ bounceable: false, urlSafe: true })
          const account = yield* chain.walletAccount(friendly)
          assert.deepStrictEqual(account, {
            address: contract.address.toRawString(),
            publicKey: key.publicKey.toString("hex"),
            walletStateInit: beginCell().store(storeStateInit(contract.init)).endCell().toBoc().toString("base64")
          })
          // the wallet road's own check accepts it: the StateInit makes exactly that address
          assert.deepStrictEqual(verifyAccount(account!), account)
        }).pipe(Effect.provide(env))
      )
    }

    it.effect("a wallet that never sent anything (funded, not deployed) is not described", () =>
      Effect.gen(function* () {
        const chain = yield* Blockchain
        const { contract } = yield* newWallet("v5r1", false)
        assert.isUndefined(yield* chain.walletAccount(contract.address.toRawString()))
        assert.isUndefined(yield* chain.walletAccount(`0:${"cd".repeat(32)}`))
      }).pipe(Effect.provide(env))
    )
  })
}
