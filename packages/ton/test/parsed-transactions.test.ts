import { assert, it } from "@effect/vitest"
import { Blockchain as Emulator } from "@ton/sandbox"
import { beginCell, storeTransaction, type Transaction, toNano } from "@ton/ton"
import { Effect } from "effect"
import { makeParsedTransactions, type RawTransaction } from "../src/ParsedTransactions.ts"

/** A transaction as toncenter answers it: its BOC in base64 and its id (logical time, base64 hash). */
const rawOf = (tx: Transaction): RawTransaction => {
  const cell = beginCell().store(storeTransaction(tx)).endCell()
  return {
    data: cell.toBoc().toString("base64"),
    transaction_id: { lt: tx.lt.toString(), hash: cell.hash().toString("base64") }
  }
}

const someTransactions = Effect.promise(async () => {
  const emulator = await Emulator.create()
  const treasury = await emulator.treasury("parsed-transactions")
  const other = await emulator.treasury("someone-else")
  const sent = await treasury.send({ to: other.address, value: toNano("1") })
  return sent.transactions
})

it.effect("a transaction read again is the one parsed before; another is parsed from its own data", () =>
  Effect.gen(function* () {
    const [first, second] = yield* someTransactions
    const parsed = makeParsedTransactions()
    const a = parsed.parse(rawOf(first!))
    assert.strictEqual(a.lt, first!.lt)
    assert.isTrue(a.hash().equals(first!.hash()))
    assert.strictEqual(parsed.parse(rawOf(first!)), a, "not parsed again")
    const b = parsed.parse(rawOf(second!))
    assert.notStrictEqual(b, a)
    assert.isTrue(b.hash().equals(second!.hash()))
    assert.strictEqual(parsed.size(), 2)
  })
)

it.effect("keeps at most the transactions it is given room for, dropping the least recently read", () =>
  Effect.gen(function* () {
    const [first, second] = yield* someTransactions
    const parsed = makeParsedTransactions(1)
    const a = parsed.parse(rawOf(first!))
    parsed.parse(rawOf(second!))
    assert.strictEqual(parsed.size(), 1)
    const again = parsed.parse(rawOf(first!))
    assert.notStrictEqual(again, a, "parsed anew once dropped")
    assert.isTrue(again.hash().equals(first!.hash()))
  })
)
