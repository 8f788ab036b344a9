/**
 * What a sandbox Fragment needs to know from the emulated chain: has the payment for an invoice
 * (its `Ref#` in the comment, at least its amount) really reached Fragment's wallet? Shaped to fit the
 * Fragment simulator's `paymentSeen` hook without this package depending on the marketplace.
 */
import type { Blockchain as Emulator } from "@ton/sandbox"
import { Address, type Cell, type Transaction } from "@ton/ton"

export const commentOf = (body: Cell): string | undefined => {
  try {
    const slice = body.beginParse()
    return slice.remainingBits >= 32 && slice.loadUint(32) === 0 ? slice.loadStringTail() : undefined
  } catch {
    // not a text comment: not a Fragment payment
    return undefined
  }
}

/**
 * Has a payment of at least `expected.amount`, with this `Ref#` in its comment, reached
 * `expected.address`, from `expected.from` when given, by `expected.before` (unix seconds) when given?
 */
export const paymentSeenOn = (emulator: Emulator) => {
  // Every delivery read scans Fragment's whole history: each transaction's comment is parsed once.
  const comments = new WeakMap<Transaction, string | undefined>()
  const commentIn = (tx: Transaction, body: Cell) => {
    if (comments.has(tx)) return comments.get(tx)
    const comment = commentOf(body)
    comments.set(tx, comment)
    return comment
  }
  return async (
    ref: string,
    expected: { readonly amount: bigint; readonly address: string; readonly from?: string; readonly before?: number }
  ): Promise<boolean> => {
    const txs = await emulator.getTransactions(Address.parse(expected.address))
    const from = expected.from === undefined ? undefined : Address.parse(expected.from)
    return txs.some((tx) => {
      const info = tx.inMessage?.info
      if (tx.inMessage == null || info?.type !== "internal" || info.value.coins < expected.amount) return false
      // only the wallet the invoice was made for pays it (Fragment credits the linked account)
      if (from !== undefined && !info.src.equals(from)) return false
      // paid after the transaction's validUntil: the request had expired, the payment is not credited
      if (expected.before !== undefined && tx.now > expected.before) return false
      return commentIn(tx, tx.inMessage.body)?.includes(`Ref#${ref}`) === true
    })
  }
}
