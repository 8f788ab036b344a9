/**
 * The direct purchase surface's vocabulary: what a caller asks for (paid from their own TON wallet,
 * identified by a mnemonic that only lives in the request), the lifecycle of one order id, and the
 * receipts a finished order answers with, now and on every repeat of the same order id.
 */
import type { Redacted } from "effect"
import { Schema } from "effect"
import type { Nanoton } from "../money/Nanoton.ts"
import type { PremiumMonths } from "../orders/Order.ts"
import type { WalletVersion } from "../ports/Blockchain.ts"

/** `ton_topup` is /coin/buy (TON to a Telegram account through the marketplace); `transfer` is wallet to wallet. */
export const DirectKind = Schema.Literals(["stars", "premium", "ton_topup", "transfer"])
export type DirectKind = typeof DirectKind.Type

/**
 * pending: order id claimed, nothing signed. sending: the wallet is locked for this order and the signed
 * message (seqno, hash, valid_until) is stored before it goes out. sent: the message is out (purchases:
 * paid on chain, delivery not confirmed yet). done / failed: final; failed means nothing was paid.
 * unknown: money may have left (or did, and delivery is unconfirmed); only reconciliation moves it on.
 */
export const DirectState = Schema.Literals(["pending", "sending", "sent", "done", "failed", "unknown"])
export type DirectState = typeof DirectState.Type

/** What every direct request carries besides its own fields. */
export interface DirectCommon {
  readonly seed: Redacted.Redacted<string>
  /** The caller's order id; the service makes one when absent. */
  readonly orderId: string | undefined
  /** Optional: the caller insists on a wallet version (a funded wallet of the other one is an error). */
  readonly walletVersion: WalletVersion | undefined
}

export interface StarsPurchase extends DirectCommon {
  readonly username: string
  readonly quantity: number
}

export interface PremiumPurchase extends DirectCommon {
  readonly username: string
  readonly months: PremiumMonths
}

export interface TonTopupPurchase extends DirectCommon {
  readonly username: string
  readonly amount: Nanoton
}

export interface TonTransfer extends DirectCommon {
  /** The address as given; the service checks it against the chain's rules before anything else. */
  readonly to: string
  readonly amount: Nanoton
  readonly comment: string | undefined
}

export interface WalletInfoRequest {
  readonly seed: Redacted.Redacted<string>
  readonly walletVersion: WalletVersion | undefined
}

/** A finished order (`done`): everything any of the four answers needs, rebuilt from the stored record. */
export interface DirectReceipt {
  readonly orderId: string
  readonly kind: DirectKind
  /** Username (purchases) or destination address (transfer). */
  readonly recipient: string
  /** Stars quantity or premium months; null for TON amounts. */
  readonly units: number | null
  /** The TON amount asked for (transfer, top-up); null for stars and premium. */
  readonly amount: Nanoton | null
  /** What went to the recipient or the marketplace. */
  readonly paid: Nanoton
  /** Network fee the wallet paid on top of `paid`. */
  readonly fee: Nanoton
  /** `paid + fee`: the whole drop of the wallet's balance for this order. */
  readonly cost: Nanoton
  /** Hex hash of the wallet's transaction. */
  readonly txHash: string
  readonly ref: string | null
  readonly walletAddress: string
  readonly network: "mainnet" | "testnet" | "sandbox"
  /**
   * Purchases: "delivered" when the marketplace said so about this order; "paid" when its own
   * evidence (payment on chain + accepted signed message) settled it, `deliveryNote` says what.
   */
  readonly delivery: "delivered" | "paid"
  readonly deliveryNote: string | null
}

export interface WalletInfo {
  readonly address: string
  readonly version: WalletVersion
  readonly status: "active" | "uninit" | "frozen"
  readonly balance: Nanoton
  readonly network: "mainnet" | "testnet" | "sandbox"
  /** Only for a phrase none of whose wallets was ever funded: every version's address, any may be funded. */
  readonly addresses?: ReadonlyArray<{ readonly version: WalletVersion; readonly address: string }>
}

/** Telegram usernames as the marketplace accepts them: a letter, then letters, digits, underscores; 4..32. */
export const USERNAME = /^[A-Za-z][A-Za-z0-9_]{3,31}$/
/** Caller order ids: printable, no spaces, so a phrase can never hide in one. */
export const ORDER_ID = /^[A-Za-z0-9_.:-]{1,128}$/

export const PREMIUM_MONTHS: ReadonlyArray<number> = [3, 6, 12]
/** The marketplace tops up whole TON only, 1..1,000,000. */
export const TOPUP_MIN_TON = 1n
export const TOPUP_MAX_TON = 1_000_000n
export const COMMENT_MAX = 500
