/**
 * Success bodies of the wallet road. A quote answers the order and, under `transaction`, the request
 * to hand unchanged to TON Connect's `sendTransaction` (its own field names: `validUntil`, `from`,
 * `messages` of `address`, `amount` in nanoton as a string, `payload`), made from Fragment's answer.
 * Every other field is snake_case like the rest of the surface; TON amounts are exact JSON numbers.
 */
import { formatTon } from "@resale/core/money/Nanoton.ts"
import { isFinal } from "@resale/core/direct/WalletSettlement.ts"
import type { WalletQuote } from "@resale/core/ports/WalletQuotes.ts"
import { tonAmount } from "./DirectJson.ts"

type Network = "mainnet" | "testnet" | "sandbox"

const sandboxNote = (network: Network) => (network === "sandbox" ? " (sandbox: no real TON moves)" : "")

const what = (q: WalletQuote): string =>
  q.kind === "stars"
    ? `${q.units} Telegram Stars for @${q.recipient}`
    : q.kind === "premium"
      ? `${q.units} months of Telegram Premium for @${q.recipient}`
      : `a ${formatTon(q.amount ?? q.payAmount)} TON top-up of @${q.recipient}`

/** The order's own fields, per kind, as the seed road names them. */
const orderFields = (q: WalletQuote) =>
  q.kind === "stars"
    ? { username: q.recipient, stars_amount: q.units ?? 0 }
    : q.kind === "premium"
      ? { username: q.recipient, duration: q.units ?? 0 }
      : { username: q.recipient, amount: tonAmount(q.amount ?? q.payAmount) }

/** TON Connect's chain id of the network (the sandbox runs mainnet's). */
const chainOf = (network: Network) => (network === "testnet" ? "-3" : "-239")

const statusMessage = (q: WalletQuote, network: Network): string => {
  switch (q.state) {
    case "awaiting_payment":
      return `Waiting for the wallet to send ${formatTon(q.payAmount)} TON for ${what(q)} before ${new Date(q.validUntil * 1000).toISOString()}${sandboxNote(network)}`
    case "paid":
      return `Paid on chain (tx ${q.txHash ?? "?"}); waiting for the marketplace to deliver ${what(q)}${sandboxNote(network)}`
    case "delivered":
      return `Bought ${what(q)}${sandboxNote(network)}`
    default:
      return `${q.note ?? q.state}${sandboxNote(network)}`
  }
}

export const walletQuoteAnswer = (q: WalletQuote, network: Network) => ({
  ok: true,
  message:
    q.state === "awaiting_payment"
      ? `Sign the transaction in the wallet to buy ${what(q)}, then report the signed message${sandboxNote(network)}`
      : statusMessage(q, network),
  order_id: q.orderId,
  status: q.state,
  ...orderFields(q),
  cost: tonAmount(q.payAmount),
  valid_until: q.validUntil,
  transaction: {
    validUntil: q.validUntil,
    network: chainOf(network),
    from: q.account.address,
    messages: [{ address: q.payTo, amount: String(q.payAmount), payload: q.payload }]
  }
})

export const walletStatusAnswer = (q: WalletQuote, network: Network) => ({
  ok: true,
  message: statusMessage(q, network),
  order_id: q.orderId,
  status: q.state,
  final: isFinal(q.state),
  ...orderFields(q),
  cost: tonAmount(q.payAmount),
  valid_until: q.validUntil,
  reported: q.boc !== null,
  tx_hash: q.txHash
})
