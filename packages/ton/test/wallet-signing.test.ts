import { assert, describe, it } from "@effect/vitest"
import { Address, beginCell, external, internal, SendMode, storeMessage, WalletContractV4 } from "@ton/ton"
import { Effect } from "effect"
import { deriveKeys } from "../src/Mnemonic.ts"
import { signedExternal, walletContract } from "../src/WalletContracts.ts"
import { BIP39_VECTOR } from "./support/wallets.ts"

// The signer is node:crypto's Ed25519; @ton/ton's own path signs with @ton/crypto (tweetnacl). Ed25519
// is deterministic, so both must produce the very same message, bit for bit.
describe("signedExternal", () => {
  for (const version of ["v4r2", "v5r1"] as const) {
    for (const deploy of [false, true]) {
      it.effect(
        `${version}${deploy ? " with deploy" : ""}: the same message as @ton/ton signing with the secret key`,
        () =>
          Effect.gen(function* () {
            const [derived] = yield* deriveKeys(BIP39_VECTOR)
            const key = derived!.key
            const contract = walletContract(version, key.publicKey, -239)
            const to = new Address(0, Buffer.alloc(32, 7))
            const ours = yield* signedExternal({
              contract,
              key,
              seqno: 3,
              validUntil: 1_900_000_000,
              deploy,
              messages: [{ to, value: 12_345n, bounce: false, body: undefined }]
            })
            const args = {
              seqno: 3,
              secretKey: Buffer.from(key.secretKey),
              messages: [internal({ to, value: 12_345n, bounce: false })],
              sendMode: SendMode.PAY_GAS_SEPARATELY + SendMode.IGNORE_ERRORS,
              timeout: 1_900_000_000
            }
            const body =
              contract instanceof WalletContractV4 ? contract.createTransfer(args) : contract.createTransfer(args)
            const theirs = beginCell()
              .store(storeMessage(external({ to: contract.address, init: deploy ? contract.init : null, body })))
              .endCell()
            assert.strictEqual(ours.hash().toString("hex"), theirs.hash().toString("hex"))
          })
      )
    }
  }

  it("the same wallet's contract is built once and answers the same address", () => {
    const key = new Uint8Array(32).fill(5)
    const first = walletContract("v5r1", key, -239)
    assert.strictEqual(walletContract("v5r1", key, -239), first)
    assert.notStrictEqual(walletContract("v5r1", key, -3).address.toRawString(), first.address.toRawString())
    assert.notStrictEqual(walletContract("v4r2", key, -239).address.toRawString(), first.address.toRawString())
  })
})
