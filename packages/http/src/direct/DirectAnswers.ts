/**
 * Success bodies of the direct surface, exactly the fields spec §4.4 lists, built from the stored
 * receipt (so a repeated order id answers the very same body). TON amounts are JSON numbers exact to
 * the nanoton (`DirectJson`); `cost` is everything the purchase took from the wallet (marketplace
 * price + network fee), `fee` the network fee on top of a transfer's amount.
 */
import type { DirectReceipt, WalletInfo } from "@resale/core/direct/DirectPurchase.ts"
import { formatTon } from "@resale/core/money/Nanoton.ts"
import { tonAmount } from "./DirectJson.ts"

const sandboxNote = (network: DirectReceipt["network"]) =>
  network === "sandbox" ? " (sandbox: no real TON moved)" : ""

/** A purchase settled on its own evidence says so: paid to Fragment, its delivery not confirmed by Fragment. */
const bought = (r: DirectReceipt, done: string, what: string) =>
  r.delivery === "paid"
    ? `Paid Fragment for ${what} (Ref#${r.ref ?? "?"}); Fragment has not confirmed the delivery${sandboxNote(r.network)}`
    : `${done}${sandboxNote(r.network)}`

export const starsAnswer = (r: DirectReceipt) => ({
  ok: true,
  message: bought(
    r,
    `Bought ${r.units} Telegram Stars for @${r.recipient}`,
    `${r.units} Telegram Stars for @${r.recipient}`
  ),
  order_id: r.orderId,
  username: r.recipient,
  stars_amount: r.units ?? 0,
  cost: tonAmount(r.cost)
})

export const premiumAnswer = (r: DirectReceipt) => ({
  ok: true,
  message: bought(
    r,
    `Gifted ${r.units} months of Telegram Premium to @${r.recipient}`,
    `${r.units} months of Telegram Premium for @${r.recipient}`
  ),
  order_id: r.orderId,
  username: r.recipient,
  duration: r.units ?? 0,
  cost: tonAmount(r.cost)
})

export const topupAnswer = (r: DirectReceipt) => ({
  ok: true,
  message: bought(
    r,
    `Topped up @${r.recipient} with ${formatTon(r.amount ?? r.paid)} TON`,
    `a ${formatTon(r.amount ?? r.paid)} TON top-up of @${r.recipient}`
  ),
  order_id: r.orderId,
  username: r.recipient,
  amount: tonAmount(r.amount ?? r.paid),
  cost: tonAmount(r.cost)
})

export const transferAnswer = (r: DirectReceipt) => ({
  ok: true,
  message: `Sent ${formatTon(r.paid)} TON to ${r.recipient}${sandboxNote(r.network)}`,
  tx_hash: r.txHash,
  fee: tonAmount(r.fee),
  order_id: r.orderId
})

/**
 * `state` repeats `status` under the name clients of the hosted service read. A phrase never funded
 * answers `uninit`, balance 0 and, in `addresses`, where each version's wallet is (send TON to either).
 */
export const balanceAnswer = (w: WalletInfo) => ({
  ok: true,
  message:
    w.addresses === undefined
      ? `Wallet ${w.version} holds ${formatTon(w.balance)} TON${w.network === "sandbox" ? " (sandbox)" : ""}`
      : `No TON has reached this phrase's wallets yet: send TON to ${w.address} (or to its ${w.addresses
          .filter((a) => a.version !== w.version)
          .map((a) => a.version)
          .join(", ")} address) to start${w.network === "sandbox" ? " (sandbox)" : ""}`,
  address: w.address,
  version: w.version,
  status: w.status,
  state: w.status,
  balance: tonAmount(w.balance),
  ...(w.addresses === undefined
    ? {}
    : { addresses: Object.fromEntries(w.addresses.map((a) => [a.version, a.address])) })
})

export const statusAnswer = (network: DirectReceipt["network"]) => ({
  ok: true,
  status: "ok",
  message: network === "sandbox" ? "Service is up (sandbox: no real TON moves)" : "Service is up",
  network,
  sandbox: network === "sandbox"
})
