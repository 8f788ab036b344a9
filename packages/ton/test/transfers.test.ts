import { assert, describe, it } from "@effect/vitest"
import { Nanoton, Wallet } from "@resale/core/ports/Blockchain.ts"
import {
  Address,
  beginCell,
  Cell,
  comment,
  contractAddress,
  external,
  ExternalAddress,
  loadStateInit,
  storeMessage
} from "@ton/ton"
import { Effect } from "effect"
import { deriveKeys } from "../src/Mnemonic.ts"
import { networkGlobalIdOf, payerAccount } from "../src/PayerAccount.ts"
import { messageBody, normalizedHash, parseRecipient } from "../src/Transfers.ts"
import { codeHashOf, expectedCodeHash, walletContract } from "../src/WalletContracts.ts"
import { BIP39_VECTOR, BIP39_VECTOR_V4R2, BIP39_VECTOR_V5R1 } from "./support/wallets.ts"

describe("Transfers", () => {
  it.effect("bounce follows the address the user gave: UQ no, EQ yes, raw yes; flags kept", () =>
    Effect.gen(function* () {
      const address = Address.parse(BIP39_VECTOR_V4R2)
      const uq = yield* parseRecipient(` ${BIP39_VECTOR_V4R2} `)
      const eq = yield* parseRecipient(address.toString({ bounceable: true }))
      const raw = yield* parseRecipient(address.toRawString())
      const testnet = yield* parseRecipient(address.toString({ bounceable: false, testOnly: true }))
      assert.deepStrictEqual([uq.bounce, eq.bounce, raw.bounce, testnet.bounce], [false, true, true, false])
      assert.strictEqual(uq.friendly, BIP39_VECTOR_V4R2)
      assert.strictEqual(raw.friendly, address.toString({ bounceable: true, urlSafe: true }))
      assert.strictEqual(testnet.friendly, address.toString({ bounceable: false, testOnly: true, urlSafe: true }))
      assert.isTrue(uq.address.equals(raw.address))
    })
  )

  it.effect("anything else is InvalidAddress, a flipped checksum character included", () =>
    Effect.gen(function* () {
      const broken = BIP39_VECTOR_V4R2.slice(0, -1) + (BIP39_VECTOR_V4R2.endsWith("Y") ? "Z" : "Y")
      for (const text of ["", "hello", "0:xyz", broken, `${BIP39_VECTOR_V4R2}x`]) {
        assert.strictEqual((yield* Effect.flip(parseRecipient(text))).reason, "InvalidAddress", text)
      }
    })
  )

  it.effect("the body is a comment cell, the payload cell unchanged, or nothing", () =>
    Effect.gen(function* () {
      const payload = comment("Telegram Premium for 3 months \n\nRef#Ab12Cd34Ef")
      const fromPayload = yield* messageBody({ payload: payload.toBoc().toString("base64").replace(/=+$/, "") })
      assert.isTrue(fromPayload!.equals(payload))
      assert.isTrue((yield* messageBody({ comment: "order o1" }))!.equals(comment("order o1")))
      assert.isUndefined(yield* messageBody({}))
      assert.strictEqual((yield* Effect.flip(messageBody({ payload: "not a boc" }))).reason, "InvalidPayload")
      assert.strictEqual(
        (yield* Effect.flip(messageBody({ payload: fromPayload!.toBoc().toString("base64"), comment: "x" }))).reason,
        "InvalidPayload"
      )
    })
  )

  it("the TEP-467 hash ignores StateInit, source and import fee but not the body", () => {
    const wallet = walletContract("v5r1", new Uint8Array(32).fill(7), -239)
    const body = beginCell().storeUint(42, 64).endCell()
    const plain = external({ to: wallet.address, body })
    const deploy = external({ to: wallet.address, init: wallet.init, body })
    const relayed = {
      ...plain,
      info: { type: "external-in" as const, dest: wallet.address, src: new ExternalAddress(5n, 8), importFee: 1000n }
    }
    const other = external({ to: wallet.address, body: beginCell().storeUint(43, 64).endCell() })
    assert.strictEqual(normalizedHash(deploy), normalizedHash(plain))
    assert.strictEqual(normalizedHash(relayed), normalizedHash(plain))
    assert.notStrictEqual(normalizedHash(other), normalizedHash(plain))
    // and it is not simply the hash of the message as sent
    const asSent = beginCell().store(storeMessage(deploy)).endCell().hash().toString("hex")
    assert.notStrictEqual(normalizedHash(deploy), asSent)
  })

  it("a wallet deployed with a library cell runs the same code hash", () => {
    const v5 = walletContract("v5r1", new Uint8Array(32), -239).init.code
    const library = new Cell({ exotic: true, bits: beginCell().storeUint(2, 8).storeBuffer(v5.hash()).endCell().bits })
    assert.strictEqual(codeHashOf(library), expectedCodeHash("v5r1"))
    assert.strictEqual(codeHashOf(v5), expectedCodeHash("v5r1"))
    assert.notStrictEqual(expectedCodeHash("v4r2"), expectedCodeHash("v5r1"))
  })
})

describe("payerAccount", () => {
  it.effect("describes the wallet like TON Connect: raw address, public key, StateInit whose hash is the address", () =>
    Effect.gen(function* () {
      const [derived] = yield* deriveKeys(BIP39_VECTOR)
      const wallet = new Wallet({
        address: BIP39_VECTOR_V5R1,
        version: "v5r1",
        kind: "bip39",
        status: "uninit",
        balance: Nanoton.make(0n),
        key: derived!.key
      })
      const payer = payerAccount(wallet, networkGlobalIdOf("sandbox"))
      assert.strictEqual(payer.address, Address.parse(BIP39_VECTOR_V5R1).toRawString())
      assert.strictEqual(payer.publicKey, "7952e94118f34607c75e23258dd9220d66ccac5a3ee074125c25068e8107bfbf")
      const init = loadStateInit(Cell.fromBase64(payer.walletStateInit).beginParse())
      assert.strictEqual(contractAddress(0, init).toRawString(), payer.address)
      assert.notInclude(JSON.stringify(payer), Buffer.from(derived!.key.secretKey).toString("hex"))
      const testnet = payerAccount(wallet, networkGlobalIdOf("testnet"))
      assert.notStrictEqual(testnet.address, payer.address) // V5R1's wallet id carries the network
    })
  )
})
