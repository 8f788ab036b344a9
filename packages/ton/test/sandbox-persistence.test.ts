import { Blockchain } from "@resale/core/ports/Blockchain.ts"
import { assert, it } from "@effect/vitest"
import { Effect, type Scope } from "effect"
import { mkdtemp, readdir, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { SandboxBlockchain } from "../src/SandboxBlockchain.ts"
import { serveSandboxToncenter } from "../src/SandboxToncenter.ts"
import { makeTonCenterBlockchain } from "../src/TonCenterBlockchain.ts"
import { fundedWallet, pay } from "./support/scenarios.ts"
import { atRealTime, bip39Words12, freshAddress, milliTon, ton } from "./support/wallets.ts"

const tempDir = Effect.acquireRelease(
  Effect.promise(() => mkdtemp(join(tmpdir(), "ton-sandbox-"))),
  (dir) => Effect.promise(() => rm(dir, { recursive: true, force: true }))
)

// One emulator per call, built from (and saving to) the state file in `dir`.
const run = <A, E>(dir: string, effect: Effect.Effect<A, E, Blockchain | SandboxBlockchain | Scope.Scope>) =>
  Effect.scoped(Effect.provide(effect, SandboxBlockchain.layerWith({ dataDir: dir })))

it.effect("the sandbox chain survives a restart: balances, deployed wallets, history, seqno", () =>
  Effect.gen(function* () {
    yield* atRealTime
    const dir = yield* tempDir
    const phrase = yield* bip39Words12
    const to = freshAddress(false)

    const first = yield* run(
      dir,
      Effect.gen(function* () {
        yield* fundedWallet(phrase, "v4r2", "bip39", ton(3))
        const wallet = yield* (yield* Blockchain).resolveWallet(phrase)
        const paid = yield* pay(wallet, to, ton(1))
        return { prepared: paid.prepared, balance: yield* (yield* Blockchain).balance(wallet.address) }
      })
    )
    assert.deepStrictEqual(yield* Effect.promise(() => readdir(dir)), ["ton-sandbox.json"])

    yield* run(
      dir,
      Effect.gen(function* () {
        const chain = yield* Blockchain
        const wallet = yield* chain.resolveWallet(phrase)
        assert.deepStrictEqual([wallet.status, wallet.balance], ["active", first.balance])
        assert.strictEqual(yield* chain.balance(to), ton(1))
        const old = yield* chain.confirm(first.prepared)
        assert.strictEqual(old._tag, "Confirmed", "the transaction history came back too")
        const again = yield* pay(wallet, to, milliTon(100))
        assert.strictEqual(again.prepared.seqno, 1)
      })
    )
  })
)

it.effect("SandboxBlockchain keeps its state in its data directory", () =>
  Effect.gen(function* () {
    const dir = yield* tempDir
    yield* Effect.scoped(
      Effect.provide(
        Effect.gen(function* () {
          yield* (yield* SandboxBlockchain).fund(freshAddress(false), ton(1))
        }),
        SandboxBlockchain.layerWith({ dataDir: dir })
      )
    )
    assert.deepStrictEqual(yield* Effect.promise(() => readdir(dir)), ["ton-sandbox.json"])
  })
)

it.effect("another process reaches the sandbox through its toncenter endpoint, and its sends are saved", () =>
  Effect.gen(function* () {
    yield* atRealTime
    const dir = yield* tempDir
    const phrase = yield* bip39Words12
    const to = freshAddress(false)
    yield* run(
      dir,
      Effect.gen(function* () {
        yield* fundedWallet(phrase, "v5r1", "bip39", ton(2))
        const { url } = yield* serveSandboxToncenter(yield* SandboxBlockchain)
        const remote = makeTonCenterBlockchain({ endpoint: url, network: "mainnet" })
        yield* pay(yield* remote.resolveWallet(phrase), to, ton(1)).pipe(Effect.provideService(Blockchain, remote))
      })
    )
    yield* run(
      dir,
      Effect.gen(function* () {
        assert.strictEqual(yield* (yield* Blockchain).balance(to), ton(1))
      })
    )
  })
)
