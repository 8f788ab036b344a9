/**
 * Looking for a watched message by its hash, poll after poll: a later look reads only the
 * transactions newer than the previous complete look, and still answers what the earlier looks found.
 */
import { Blockchain, type PreparedTransfer } from "@resale/core/ports/Blockchain.ts"
import { assert, describe, it } from "@effect/vitest"
import { Address } from "@ton/ton"
import { Effect } from "effect"
import type { ChainClient } from "../src/ChainClient.ts"
import { makeHashSearch } from "../src/HashSearch.ts"
import { SandboxBlockchain, sandboxClient } from "../src/SandboxBlockchain.ts"
import { fundedWallet } from "./support/scenarios.ts"
import { bip39Words12, freshAddress, milliTon, ton } from "./support/wallets.ts"

const Env = SandboxBlockchain.layerWith({})

describe("looking for a message by hash", () => {
  it.live(
    "a later look reads only what is newer, and keeps what the earlier looks found",
    () =>
      Effect.gen(function* () {
        const chain = yield* Blockchain
        const { emulator } = yield* SandboxBlockchain
        const phrase = yield* bip39Words12
        yield* fundedWallet(phrase, "v5r1", "bip39", ton(10))
        const wallet = yield* chain.resolveWallet(phrase, { version: "v5r1" })
        const transfer = (n: number) =>
          Effect.gen(function* () {
            const prepared: PreparedTransfer = yield* chain.prepareTransfer(wallet, {
              to: freshAddress(false),
              amount: milliTon(10 + n)
            })
            yield* chain.send(prepared)
            yield* chain.confirm(prepared)
            return prepared
          })
        const sent = yield* Effect.forEach([0, 1, 2, 3, 4, 5, 6], transfer)

        // A client that counts the transactions it hands out.
        const inner = sandboxClient(emulator, Effect.void)
        let read = 0
        const counting: ChainClient = {
          ...inner,
          transactions: (a, p) => Effect.map(inner.transactions(a, p), (txs) => ((read += txs.length), txs))
        }
        const find = makeHashSearch(counting, 50)
        const address = Address.parse(wallet.address)
        const watched = sent[1]!

        const first = yield* find(address, watched.externalHash, watched.createdAt - 300)
        assert.strictEqual(first.found.length, 1)
        assert.isTrue(first.complete)
        const all = read
        assert.strictEqual(all, 8, "the first look reads the wallet's whole history (its funding and seven transfers)")

        // Nothing new: the next look asks for one small page and stops at what it already read.
        read = 0
        const again = yield* find(address, watched.externalHash, watched.createdAt - 300)
        assert.strictEqual(again.found.length, 1)
        assert.strictEqual(again.found[0]!.lt, first.found[0]!.lt)
        assert.isTrue(again.complete)
        assert.strictEqual(again.newest, first.newest)
        assert.strictEqual(read, 5)

        // Two newer transfers: read, and nothing older again.
        yield* transfer(7)
        yield* transfer(8)
        read = 0
        const later = yield* find(address, watched.externalHash, watched.createdAt - 300)
        assert.strictEqual(later.found.length, 1)
        assert.isTrue(later.newest > first.newest)
        assert.strictEqual(read, 5)

        // Another message is looked for on its own: its first look reads the whole history.
        read = 0
        const other = yield* find(address, sent[0]!.externalHash, sent[0]!.createdAt - 300)
        assert.strictEqual(other.found.length, 1)
        assert.strictEqual(read, all + 2)
      }).pipe(Effect.provide(Env)),
    60_000
  )
})
