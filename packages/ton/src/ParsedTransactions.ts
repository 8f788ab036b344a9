/**
 * Transactions read from toncenter, parsed once per transaction instead of once per read. The
 * confirmation polls read a wallet's newest transactions again and again, and a Highload batch's
 * internal_transfer (hundreds of out messages) costs milliseconds to parse each time: most of the
 * worker's chain work at a rush. A parsed transaction is kept under toncenter's transaction id, its
 * logical time and the hash of the transaction cell; that hash commits to every bit of the
 * transaction, so the kept value is exactly what parsing the returned data gives again. The cache
 * only answers for a transaction the node has just returned in this very answer: it never shows a
 * transaction the node no longer shows (one rolled back, say), nor one it has not shown yet.
 */
import { Cell, loadTransaction, type Transaction } from "@ton/ton"

/** toncenter's own fields of a transaction in a getTransactions answer (base64 BOC and id). */
export interface RawTransaction {
  readonly data: string
  readonly transaction_id: { readonly lt: string; readonly hash: string }
}

/** Transactions kept: a few pages of every wallet watched at once (batches in flight are few). */
const KEPT = 512

export const makeParsedTransactions = (kept = KEPT) => {
  const parsed = new Map<string, Transaction>()

  const parse = (raw: RawTransaction): Transaction => {
    const id = `${raw.transaction_id.lt}:${raw.transaction_id.hash}`
    const known = parsed.get(id)
    if (known !== undefined) {
      // Most recently used last, so the oldest reads go first.
      parsed.delete(id)
      parsed.set(id, known)
      return known
    }
    const tx = loadTransaction(Cell.fromBoc(Buffer.from(raw.data, "base64"))[0]!.beginParse())
    parsed.set(id, tx)
    if (parsed.size > kept) parsed.delete(parsed.keys().next().value!)
    return tx
  }

  return { parse, size: () => parsed.size }
}
