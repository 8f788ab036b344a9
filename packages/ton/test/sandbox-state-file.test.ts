/**
 * The sandbox chain's state file serializes each transaction once and reuses it on later writes:
 * every write must still be exactly what @ton/sandbox's own serialization of the whole state gives,
 * including after a dropped run was rolled back, and it must load back.
 */
import { assert, it } from "@effect/vitest"
import { Blockchain as Emulator, snapshotToSerializable } from "@ton/sandbox"
import { Address, toNano } from "@ton/ton"
import { Effect } from "effect"
import { mkdtemp, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { makeSandboxStateFile } from "../src/SandboxStateFile.ts"
import { freshAddress } from "./support/wallets.ts"

const tempDir = Effect.acquireRelease(
  Effect.promise(() => mkdtemp(join(tmpdir(), "ton-state-file-"))),
  (dir) => Effect.promise(() => rm(dir, { recursive: true, force: true }))
)

it.effect("each write equals the library's serialization of the whole state, and loads back", () =>
  Effect.gen(function* () {
    const file = join(yield* tempDir, "ton-sandbox.json")
    const stateFile = makeSandboxStateFile(file)
    const emulator = yield* Effect.promise(() => Emulator.create())
    const faucet = yield* Effect.promise(() => emulator.treasury("faucet"))
    const pay = (ton: string) =>
      Effect.promise(() => faucet.send({ to: Address.parse(freshAddress(false)), value: toNano(ton), bounce: false }))
    const written = Effect.promise(async () => JSON.parse(await readFile(file, "utf8")) as unknown)
    const expected = () => JSON.parse(JSON.stringify(snapshotToSerializable(emulator.snapshot()))) as unknown

    yield* pay("1")
    yield* Effect.promise(() => stateFile.save(emulator))
    assert.deepStrictEqual(yield* written, expected())
    const before = emulator.snapshot()
    yield* pay("2")
    yield* pay("3")
    yield* Effect.promise(() => stateFile.save(emulator))
    assert.deepStrictEqual(yield* written, expected(), "the second write holds the new transactions too")
    // A run the sandbox takes back (a lost payment): the history is the older one again.
    yield* Effect.promise(() => emulator.loadFrom(before))
    yield* Effect.promise(() => stateFile.save(emulator))
    assert.deepStrictEqual(yield* written, expected())
    const back = (yield* written) as { transactions: Array<unknown> }
    assert.lengthOf(back.transactions, before.transactions.length)

    const again = yield* Effect.promise(() => Emulator.create())
    yield* Effect.promise(() => makeSandboxStateFile(file).restore(again))
    const restored = JSON.parse(JSON.stringify(snapshotToSerializable(again.snapshot()))) as unknown
    assert.deepStrictEqual(restored, expected())
  })
)
