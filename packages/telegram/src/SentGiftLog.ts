/**
 * The simulated Telegram's history of sent gifts. With a file (sandbox mode: `DATA_DIR/sandbox-gifts.jsonl`)
 * it is shared by every process of the data directory, as an account's history is shared by every
 * client of the account: each read takes the file as it is now, so a gift another process sent is
 * found by `findSent` here too, and each send is appended (and flushed to disk) before it is reported.
 * Without a file it lives in the process's memory (unit tests).
 */
import { Effect } from "effect"
import { appendFile, mkdir, readFile } from "node:fs/promises"
import { dirname } from "node:path"

export interface SentGiftRecord {
  readonly account: string
  readonly recipient: string
  readonly giftId: string
  readonly message: string | null
  readonly anonymous: boolean
  readonly reference: string
  readonly sentAt: string
}

export interface SentGiftLog {
  /** every gift sent so far, by any process of the log's file */
  readonly read: Effect.Effect<ReadonlyArray<SentGiftRecord>>
  /** records one sent gift, numbered after every gift already in the log */
  readonly append: (entry: Omit<SentGiftRecord, "reference">) => Effect.Effect<SentGiftRecord>
  /** the log as last read or written by this process */
  readonly cached: () => ReadonlyArray<SentGiftRecord>
}

const parse = (text: string): Array<SentGiftRecord> => {
  const records: Array<SentGiftRecord> = []
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue
    try {
      records.push(JSON.parse(line) as SentGiftRecord)
    } catch {
      // a torn line from a crash mid-append: that gift was never confirmed to anyone
    }
  }
  return records
}

const referenceOf = (count: number) => `sim-gift-${count + 1}`

export const makeSentGiftLog = Effect.fn("SentGiftLog.make")(function* (file: string | undefined) {
  let cache: Array<SentGiftRecord> = []
  if (file === undefined) {
    const memory: SentGiftLog = {
      read: Effect.sync(() => [...cache]),
      append: (entry) =>
        Effect.sync(() => {
          const record = { ...entry, reference: referenceOf(cache.length) }
          cache.push(record)
          return record
        }),
      cached: () => [...cache]
    }
    return memory
  }
  yield* Effect.promise(() => mkdir(dirname(file), { recursive: true }))
  const readText = Effect.promise(() => readFile(file, "utf8").catch(() => ""))
  const read = Effect.map(readText, (text) => {
    cache = parse(text)
    return [...cache]
  })
  const append = (entry: Omit<SentGiftRecord, "reference">) =>
    Effect.gen(function* () {
      const text = yield* readText
      cache = parse(text)
      const record: SentGiftRecord = { ...entry, reference: referenceOf(cache.length) }
      // A torn last line is closed first, so this record starts a line of its own.
      const lead = text === "" || text.endsWith("\n") ? "" : "\n"
      yield* Effect.promise(() => appendFile(file, `${lead}${JSON.stringify(record)}\n`, { flush: true }))
      cache.push(record)
      return record
    })
  const shared: SentGiftLog = { read, append, cached: () => [...cache] }
  yield* read
  return shared
})
