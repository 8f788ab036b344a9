/**
 * The sandbox chain's state file (`ton-sandbox.json`): the emulator's snapshot in @ton/sandbox's own
 * serializable form, written after every block that held messages. The snapshot carries the chain's
 * whole transaction history and a transaction never changes once its message chain has run, so each
 * one is serialized once and reused by every later write (before, every block serialized every
 * transaction since the chain began again: cells built, hashed and base64-encoded each time).
 */
import {
  type BlockchainSnapshot,
  type Blockchain as Emulator,
  snapshotFromSerializable,
  snapshotToSerializable
} from "@ton/sandbox"
import { mkdir, readFile, rename, writeFile } from "node:fs/promises"
import { dirname } from "node:path"

type SerializableSnapshot = ReturnType<typeof snapshotToSerializable>
type Transaction = BlockchainSnapshot["transactions"][number]
type SerializedTransaction = SerializableSnapshot["transactions"][number]

export interface SandboxStateFile {
  /** Loads the file into the emulator; nothing when there is no file yet. */
  readonly restore: (emulator: Emulator) => Promise<void>
  /** Writes the emulator's state (to a temporary file, then renamed: a crash never leaves half a state). */
  readonly save: (emulator: Emulator) => Promise<void>
}

export const makeSandboxStateFile = (file: string): SandboxStateFile => {
  // A transaction's serialized form, with how many children it had then (its children are recorded
  // on it while its message chain runs, which a block finishes before it saves).
  const serialized = new WeakMap<Transaction, { readonly children: number; readonly entry: SerializedTransaction }>()
  const isKnown = (tx: Transaction) => serialized.get(tx)?.children === tx.children.length

  const serializable = (snapshot: BlockchainSnapshot): SerializableSnapshot => {
    const fresh = snapshot.transactions.filter((tx) => !isKnown(tx))
    const rest = snapshotToSerializable({ ...snapshot, transactions: fresh })
    fresh.forEach((tx, i) => serialized.set(tx, { children: tx.children.length, entry: rest.transactions[i]! }))
    return { ...rest, transactions: snapshot.transactions.map((tx) => serialized.get(tx)!.entry) }
  }

  return {
    restore: async (emulator) => {
      const text = await readFile(file, "utf8").catch((e: NodeJS.ErrnoException) => {
        if (e.code === "ENOENT") return undefined
        throw e
      })
      if (text !== undefined) await emulator.loadFrom(snapshotFromSerializable(JSON.parse(text)))
    },
    save: async (emulator) => {
      const text = JSON.stringify(serializable(emulator.snapshot()))
      await mkdir(dirname(file), { recursive: true })
      await writeFile(`${file}.tmp`, text)
      await rename(`${file}.tmp`, file)
    }
  }
}
