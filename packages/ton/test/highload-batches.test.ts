/**
 * Highload Wallet V3 on the real TON VM (@ton/sandbox, blocks every 300 ms): the official code (its
 * published hash), deployed by the first batch; 200 payments in one external message, each with its
 * Ref#; a query id is never signed twice and a replay is refused by the contract; a skipped action fails
 * only its own payment; what a batch costs.
 */
import { type BatchStatus, Blockchain, type BlockchainError } from "@resale/core/ports/Blockchain.ts"
import { assert, describe, it } from "@effect/vitest"
import { Address, beginCell, Cell, Dictionary, type Transaction } from "@ton/ton"
import { Effect, Redacted } from "effect"
import {
  HIGHLOAD_V3_CODE,
  HIGHLOAD_V3_CODE_HASH,
  HighloadWalletV3,
  positionOf,
  processedQueryIds,
  queryIdAt,
  queryIdOfExternal,
  signedHighloadExternal
} from "../src/HighloadWalletV3.ts"
import { deriveKeys } from "../src/Mnemonic.ts"
import { SandboxBlockchain, sandboxClient } from "../src/SandboxBlockchain.ts"
import { makeTonBlockchain } from "../src/TonBlockchain.ts"
import { makeTonCenterBlockchain } from "../src/TonCenterBlockchain.ts"
import { Loopback, TEST_API_KEY, testOptions, ToncenterEnv } from "./support/layers.ts"
import { fundedWallet } from "./support/scenarios.ts"
import { bip39Words12, freshAddress, milliTon, ton } from "./support/wallets.ts"

const payload = (ref: string) =>
  beginCell().storeUint(0, 32).storeStringTail(`50 Telegram Stars \n\nRef#${ref}`).endCell().toBoc().toString("base64")

const settled = <S extends { readonly _tag: string }>(look: Effect.Effect<S, BlockchainError>) =>
  Effect.gen(function* () {
    while (true) {
      const status = yield* look
      if (status._tag !== "Pending") return status
      yield* Effect.sleep("50 millis")
    }
  })

const executed = (status: BatchStatus) => {
  assert(status._tag === "Executed", `expected Executed, got ${status._tag}`)
  return status
}

const Env = SandboxBlockchain.layerWith({ blockInterval: "300 millis", expiryMarginSeconds: 1 })

const walletTxs = (address: string) =>
  Effect.gen(function* () {
    const { emulator } = yield* SandboxBlockchain
    const txs = yield* Effect.promise(() => emulator.getTransactions(Address.parse(address)))
    return txs as ReadonlyArray<Transaction>
  })

/** What arrived at `address` (its balance also pays storage). */
const received = (address: string) =>
  Effect.map(walletTxs(address), (txs) =>
    txs.reduce((sum, t) => sum + (t.inMessage?.info.type === "internal" ? t.inMessage.info.value.coins : 0n), 0n)
  )

describe("Highload Wallet V3 on the sandbox chain", () => {
  it("runs the code the contract's repository publishes", () => {
    assert.strictEqual(HIGHLOAD_V3_CODE.hash().toString("hex"), HIGHLOAD_V3_CODE_HASH)
  })

  it("counts query ids as the reference does: shift << 10 | bit number, 1023 per shift", () => {
    assert.deepStrictEqual(
      [queryIdAt(0), queryIdAt(1022), queryIdAt(1023), queryIdAt(2045), queryIdAt(2046)],
      [0, 1022, 1024, 2046, 2048]
    )
    for (const position of [0, 5, 1022, 1023, 777_777, 8_380_414])
      assert.strictEqual(positionOf(queryIdAt(position)), position)
    // The last id of all (shift 8191, bit 1022) stays free for an emergency withdrawal.
    assert.strictEqual(queryIdAt(8_380_415), 0)
  })

  it("reads processed ids from both of the wallet's dictionaries (the last timeout's and the one before)", () => {
    const row = (...bits: Array<number>) => {
      const b = beginCell()
      for (let i = 0; i < 1023; i++) b.storeBit(bits.includes(i))
      return b.endCell()
    }
    const dict = (entries: ReadonlyArray<readonly [number, Cell]>) => {
      const d = Dictionary.empty(Dictionary.Keys.Uint(13), Dictionary.Values.Cell())
      for (const [k, v] of entries) d.set(k, v)
      return d
    }
    const data = beginCell()
      .storeBuffer(Buffer.alloc(32), 32)
      .storeUint(0x10ad, 32)
      .storeDict(dict([[2, row(5)]])) // old_queries
      .storeDict(
        dict([
          [0, row(0, 1)],
          [8191, row(1021)]
        ])
      ) // queries
      .storeUint(1_700_000_000, 64)
      .storeUint(3600, 22)
      .endCell()
    assert.deepStrictEqual(
      [...processedQueryIds(data)].sort((a, b) => a - b),
      [0, 1, 2 * 1024 + 5, 8191 * 1024 + 1021]
    )
    assert.strictEqual(processedQueryIds(undefined).size, 0)
  })

  it.live("an unfunded phrase names the highload address to fund when that version is asked for", () =>
    Effect.gen(function* () {
      const chain = yield* Blockchain
      const phrase = yield* bip39Words12
      const error = yield* Effect.flip(chain.resolveWallet(phrase, { version: "highload-v3" }))
      assert.strictEqual(error.reason, "WalletNotFound")
      const [key] = yield* Effect.orDie(deriveKeys(phrase))
      const address = HighloadWalletV3.create(Buffer.from(key!.key.publicKey)).address.toString({
        bounceable: false,
        urlSafe: true
      })
      assert.deepStrictEqual(error.addresses, [{ version: "highload-v3", address }])
      // Asked for nothing, the phrase is looked up as wallet apps create it (no highload address).
      const plain = yield* Effect.flip(chain.resolveWallet(phrase))
      assert.deepStrictEqual(
        plain.addresses?.map((a) => a.version),
        ["v4r2", "v5r1"]
      )
    }).pipe(Effect.provide(Env))
  )

  it.live(
    "deploys with its first batch; 200 payments in one external message, all delivered with their Ref#",
    () =>
      Effect.gen(function* () {
        const chain = yield* Blockchain
        const phrase = yield* bip39Words12
        const address = yield* fundedWallet(phrase, "highload-v3", "bip39", ton(500))
        const wallet = yield* chain.resolveWallet(phrase, { version: "highload-v3" })
        assert.deepStrictEqual([wallet.address, wallet.version, wallet.status], [address, "highload-v3", "uninit"])
        assert.strictEqual(chain.batchLimit("highload-v3"), 254)

        const merchants = [freshAddress(false), freshAddress(false)]
        const requests = Array.from({ length: 200 }, (_, i) => ({
          to: merchants[i % 2]!,
          amount: milliTon(100 + i),
          payload: payload(`H${i}`)
        }))
        const batch = yield* chain.prepareBatch(wallet, requests)
        assert.strictEqual(batch.queryId, 0)
        yield* chain.send(batch)
        const status = executed(yield* settled(chain.confirmBatch(batch)))
        assert.deepStrictEqual(
          status.sent,
          requests.map(() => true)
        )
        assert.strictEqual((yield* chain.accountState(address)).status, "active")
        const txs = yield* walletTxs(address)
        assert.strictEqual(
          txs.filter((t) => t.inMessage?.info.type === "external-in").length,
          1,
          "one external message"
        )
        assert.strictEqual(txs.find((t) => t.hash().toString("hex") === status.txHash)?.outMessagesCount, 200)
        assert.strictEqual(
          yield* received(merchants[0]!),
          requests.filter((_, i) => i % 2 === 0).reduce((s, r) => s + r.amount, 0n)
        )

        const out = yield* chain.outgoing(address, batch.createdAt - 60)
        const refs = new Set(out.map((m) => /Ref#(\w+)/.exec(m.comment ?? "")?.[1]))
        assert.isTrue(requests.every((_, i) => refs.has(`H${i}`)))

        // A second batch of the same wallet: the next query id, no seqno wait, cost per payment shown.
        const one = yield* chain.prepareBatch(wallet, requests.slice(0, 1))
        assert.strictEqual(one.queryId, 1)
        yield* chain.send(one)
        const single = executed(yield* settled(chain.confirmBatch(one)))
        const forty = yield* chain.prepareBatch(wallet, requests.slice(0, 40))
        yield* chain.send(forty)
        const fortyStatus = executed(yield* settled(chain.confirmBatch(forty)))
        console.log(
          `highload v3 fees on the emulator: deploy + 200 payments ${status.fee} (${status.fee / 200n} each), ` +
            `1 payment ${single.fee}, 40 payments ${fortyStatus.fee} (${fortyStatus.fee / 40n} each)`
        )
        assert.isTrue(fortyStatus.fee / 40n < single.fee, "a batched payment costs less than a single one")
      }).pipe(Effect.provide(Env)),
    120_000
  )

  it.live(
    "a query id is never signed twice, across restarts too, and the contract refuses a replay",
    () =>
      Effect.gen(function* () {
        const chain = yield* Blockchain
        const { emulator } = yield* SandboxBlockchain
        const phrase = yield* bip39Words12
        const address = yield* fundedWallet(phrase, "highload-v3", "bip39", ton(20))
        const wallet = yield* chain.resolveWallet(phrase, { version: "highload-v3" })
        const merchant = freshAddress(false)
        const request = (ref: string) => ({ to: merchant, amount: milliTon(10), payload: payload(ref) })
        const ids: Array<number> = []
        for (const ref of ["a", "b", "c"]) {
          const batch = yield* chain.prepareBatch(wallet, [request(ref)])
          yield* chain.send(batch)
          executed(yield* settled(chain.confirmBatch(batch)))
          ids.push(batch.queryId!)
          // The same message again: its query id is processed, the contract refuses it (exit code 36).
          const replay = yield* Effect.flip(chain.send(batch))
          assert.deepStrictEqual([replay.reason, replay.exitCode], ["Rejected", 36])
        }
        assert.deepStrictEqual(ids, [0, 1, 2])

        // Another message signed with a used id is refused as well.
        const [key] = yield* Effect.orDie(deriveKeys(phrase))
        const forged = signedHighloadExternal({
          contract: HighloadWalletV3.create(Buffer.from(key!.key.publicKey)),
          secretKey: key!.key.secretKey,
          queryId: 1,
          validUntil: Math.floor(Date.now() / 1000) + 30,
          deploy: false,
          messages: [{ to: Address.parse(merchant), value: milliTon(10), bounce: false, body: undefined }]
        })
        assert.strictEqual(queryIdOfExternal(forged), 1)
        const refused = yield* Effect.flip(chain.send({ boc: forged.toBoc().toString("base64") }))
        assert.deepStrictEqual([refused.reason, refused.exitCode], ["Rejected", 36])

        // A restarted process (a new adapter, nothing in memory) starts after what the wallet remembers.
        const account = yield* Effect.orDie(sandboxClient(emulator, Effect.void).account(Address.parse(address)))
        assert.deepStrictEqual([...processedQueryIds(account.data)].sort(), [0, 1, 2])
        const restarted = makeTonBlockchain(sandboxClient(emulator, Effect.void))
        const next = yield* restarted.prepareBatch(wallet, [request("d")])
        assert.strictEqual(next.queryId, 3)
        assert.strictEqual(queryIdOfExternal(Cell.fromBase64(next.boc)), 3)
        // Without blocks the emulator answers a refused external at once, as a node's sendBoc does.
      }).pipe(Effect.provide(SandboxBlockchain.layerWith({ expiryMarginSeconds: 1 }))),
    60_000
  )

  it.live(
    "a batch never run is Expired once its time passes, Superseded when another message took its query id",
    () =>
      Effect.gen(function* () {
        const { emulator } = yield* SandboxBlockchain
        const chain = makeTonBlockchain(sandboxClient(emulator, Effect.void), { ttlSeconds: 2, expiryMarginSeconds: 1 })
        const phrase = yield* bip39Words12
        yield* fundedWallet(phrase, "highload-v3", "bip39", ton(5))
        const wallet = yield* chain.resolveWallet(phrase, { version: "highload-v3" })
        const merchant = freshAddress(false)
        const lost = yield* chain.prepareBatch(wallet, [
          { to: merchant, amount: milliTon(10), payload: payload("lost") }
        ])
        const taken = yield* chain.prepareBatch(wallet, [
          { to: merchant, amount: milliTon(10), payload: payload("taken") }
        ])
        // The phrase used elsewhere: another message carries the query id of `taken`.
        const [key] = yield* Effect.orDie(deriveKeys(phrase))
        const other = signedHighloadExternal({
          contract: HighloadWalletV3.create(Buffer.from(key!.key.publicKey)),
          secretKey: key!.key.secretKey,
          queryId: taken.queryId!,
          validUntil: Math.floor(Date.now() / 1000) + 30,
          deploy: true,
          messages: [{ to: Address.parse(merchant), value: milliTon(1), bounce: false, body: undefined }]
        })
        yield* chain.send({ boc: other.toBoc().toString("base64") })
        assert.strictEqual((yield* chain.confirmBatch(lost))._tag, "Pending")
        assert.strictEqual((yield* chain.confirmBatch(taken))._tag, "Pending")
        yield* Effect.sleep("4 seconds")
        assert.strictEqual((yield* chain.confirmBatch(lost))._tag, "Expired")
        assert.strictEqual((yield* chain.confirmBatch(taken))._tag, "Superseded")
        // Sent now, after its time: the contract refuses it.
        assert.strictEqual((yield* Effect.flip(chain.send(lost))).exitCode, 35)
      }).pipe(Effect.provide(SandboxBlockchain.layerWith({ expiryMarginSeconds: 1 }))),
    60_000
  )

  it.live(
    "funds short mid-batch: only the skipped payments are not sent, the others are paid",
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
        yield* fundedWallet(phrase, "highload-v3", "bip39", ton(3))
        const wallet = yield* optimistic.resolveWallet(phrase, { version: "highload-v3" })
        const merchant = freshAddress(false)
        const requests = [ton(1), ton(1), ton(5), milliTon(200)].map((amount, i) => ({
          to: merchant,
          amount,
          payload: payload(`S${i}`)
        }))
        const batch = yield* optimistic.prepareBatch(wallet, requests)
        yield* optimistic.send(batch)
        const status = executed(yield* settled(optimistic.confirmBatch(batch)))
        assert.deepStrictEqual(status.sent, [true, true, false, true], "only the 5 TON payment was skipped")
        assert.strictEqual(yield* received(merchant), ton(2) + milliTon(200))
      }).pipe(Effect.provide(SandboxBlockchain.layerWith({ expiryMarginSeconds: 1 }))),
    60_000
  )

  it.live(
    "through toncenter (TonClient over a loopback toncenter): deployed, paid, and the next query id read from the wallet's data",
    () =>
      Effect.gen(function* () {
        const chain = yield* Blockchain
        const phrase = yield* bip39Words12
        yield* fundedWallet(phrase, "highload-v3", "bip39", ton(10))
        const wallet = yield* chain.resolveWallet(phrase, { version: "highload-v3" })
        const merchant = freshAddress(false)
        const requests = [1, 2, 3].map((i) => ({ to: merchant, amount: milliTon(i), payload: payload(`T${i}`) }))
        const first = yield* chain.prepareBatch(wallet, requests)
        yield* chain.send(first)
        assert.deepStrictEqual(executed(yield* settled(chain.confirmBatch(first))).sent, [true, true, true])
        // A restarted process reads the processed ids from the wallet's data as toncenter returns it.
        const server = yield* Loopback
        const restarted = makeTonCenterBlockchain({
          endpoint: server.url,
          network: "mainnet",
          apiKey: Redacted.make(TEST_API_KEY),
          ...testOptions
        })
        const asked = server.calls.length
        const second = yield* restarted.prepareBatch(wallet, requests)
        assert.deepStrictEqual([first.queryId, second.queryId], [0, 1])
        // Its state read without asking for a seqno, a get-method the wallet does not have.
        assert.deepStrictEqual(
          server.calls.slice(asked).map((c) => c.method),
          ["getAddressInformation"]
        )
        assert.strictEqual((yield* chain.accountState(wallet.address)).status, "active")
      }).pipe(Effect.provide(ToncenterEnv)),
    60_000
  )
})
