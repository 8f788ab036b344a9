/**
 * Pure helpers of a transfer: recipient address and bounce flag, message body, the TEP-467 normalized
 * hash of an external-in message, and what a wallet transaction says about our payment.
 */
import { BlockchainError, Nanoton, type TransferStatus } from "@resale/core/ports/Blockchain.ts"
import { Address, beginCell, Cell, comment, loadMessage, type Message, storeMessage, type Transaction } from "@ton/ton"
import { Effect } from "effect"

export interface Recipient {
  readonly address: Address
  readonly bounce: boolean
  /** User-friendly form that keeps the flags the user gave (raw input -> bounceable). */
  readonly friendly: string
}

/**
 * Bounce comes from the address itself: @ton/core's `internal()` would bounce to a non-bounceable
 * (UQ...) address and send the coins back from a fresh wallet.
 */
export const parseRecipient = (text: string): Effect.Effect<Recipient, BlockchainError> =>
  Effect.try({
    try: (): Recipient => {
      const s = text.trim()
      if (Address.isRaw(s)) {
        const address = Address.parseRaw(s)
        return { address, bounce: true, friendly: address.toString({ bounceable: true, urlSafe: true }) }
      }
      const f = Address.parseFriendly(s) // throws on anything else, bad checksum included
      const friendly = f.address.toString({ bounceable: f.isBounceable, testOnly: f.isTestOnly, urlSafe: true })
      return { address: f.address, bounce: f.isBounceable, friendly }
    },
    catch: () =>
      new BlockchainError({ reason: "InvalidAddress", message: "The recipient address is not a valid TON address" })
  })

/** The internal message body: a text comment (op 0), the caller's cell byte for byte, or nothing. */
export const messageBody = (request: { readonly comment?: string; readonly payload?: string }) => {
  const bad = (message: string) => new BlockchainError({ reason: "InvalidPayload", message })
  if (request.comment !== undefined && request.payload !== undefined) {
    return Effect.fail(bad("Give either a comment or a payload, not both"))
  }
  const payload = request.payload
  if (payload !== undefined) {
    return Effect.try({
      try: (): Cell | undefined => Cell.fromBase64(payload.trim()),
      catch: () => bad("The payload is not a base64 BOC")
    })
  }
  return Effect.succeed(
    request.comment !== undefined && request.comment.length > 0 ? comment(request.comment) : undefined
  )
}

/**
 * TEP-467: src addr_none, import_fee 0, no StateInit, body in a ref. Same hash whether the message
 * carried a deploy StateInit or not, and whatever a relay did to the envelope.
 */
export const normalizedHash = (message: Message): string | undefined => {
  if (message.info.type !== "external-in") return undefined
  const normal: Message = {
    info: { type: "external-in", src: null, dest: message.info.dest, importFee: 0n },
    init: null,
    body: message.body
  }
  return beginCell()
    .store(storeMessage(normal, { forceRef: true }))
    .endCell()
    .hash()
    .toString("hex")
}

export const normalizedHashOfBoc = (boc: Cell): string => normalizedHash(loadMessage(boc.beginParse())) ?? ""

/** Everything the sender paid beyond the amount: transaction fees plus the forward fee of the out message. */
export const senderFee = (tx: Transaction): bigint => {
  const action = tx.description.type === "generic" ? tx.description.actionPhase : undefined
  return tx.totalFees.coins + (action?.totalFwdFees ?? 0n) - (action?.totalActionFees ?? 0n)
}

export type TxVerdict =
  | { readonly _tag: "Paid"; readonly status: TransferStatus }
  | { readonly _tag: "NotPaid"; readonly status: TransferStatus }

/**
 * "Not aborted" is not "paid": with mode 3 an underfunded action is skipped and the tx succeeds. Paid
 * means: compute ok, not aborted, no skipped action, and an out message to the recipient for the amount.
 */
export const verdict = (tx: Transaction, to: Address, amount: bigint): TxVerdict => {
  const txHash = tx.hash().toString("hex")
  const notPaid = (reason: "Aborted" | "SkippedAction" | "NoOutMessage", exitCode?: number): TxVerdict => ({
    _tag: "NotPaid",
    status: { _tag: "Failed", reason, txHash, ...(exitCode === undefined ? {} : { exitCode }) }
  })
  const d = tx.description
  if (d.type !== "generic") return notPaid("Aborted")
  const compute = d.computePhase
  if (compute.type !== "vm" || !compute.success || d.aborted) {
    return notPaid(
      "Aborted",
      compute.type === "vm" ? (compute.success ? d.actionPhase?.resultCode : compute.exitCode) : undefined
    )
  }
  const action = d.actionPhase
  if (action == null || !action.success) return notPaid("Aborted", action?.resultCode)
  if (action.skippedActions > 0) return notPaid("SkippedAction", action.resultCode)
  const paid = tx.outMessages
    .values()
    .some((m) => m.info.type === "internal" && m.info.dest.equals(to) && m.info.value.coins === amount)
  if (!paid) return notPaid("NoOutMessage")
  return {
    _tag: "Paid",
    status: { _tag: "Confirmed", txHash, lt: tx.lt.toString(), fee: Nanoton.make(senderFee(tx)), utime: tx.now }
  }
}

/** Which transfers left in this transaction: each out message matched once, by recipient, amount and body. */
export const sentOf = (
  tx: Transaction,
  transfers: ReadonlyArray<{ readonly to: string; readonly amount: bigint; readonly bodyHash: string }>,
  parse: (to: string) => Address
): Array<boolean> => {
  const d = tx.description
  const ran = d.type === "generic" && !d.aborted && d.computePhase.type === "vm" && d.computePhase.success
  if (!ran) return transfers.map(() => false)
  const outs = tx.outMessages.values().filter((m) => m.info.type === "internal")
  const used = new Set<number>()
  return transfers.map((t) => {
    const to = parse(t.to)
    const index = outs.findIndex(
      (m, i) =>
        !used.has(i) &&
        m.info.type === "internal" &&
        m.info.dest.equals(to) &&
        m.info.value.coins === t.amount &&
        m.body.hash().toString("hex") === t.bodyHash
    )
    if (index < 0) return false
    used.add(index)
    return true
  })
}
