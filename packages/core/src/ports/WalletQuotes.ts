/**
 * Storage of the wallet road's quotes: purchases the buyer's own wallet signs (TON Connect), so the
 * service never holds a key. An order id belongs to its wallet, as on the seed road: at most one
 * *latest* quote per (network, wallet address, order id); older quotes of an id stay, not latest.
 *
 * Contract:
 * - `insert` adds a quote as the latest of its id unless the id has one (then it returns that one);
 *   with `replacing`, that previous latest quote is retired in the same transaction, and if someone
 *   moved first nothing is written (`Existing` with the quote now latest).
 * - `settle` is the one way a quote changes state: a conditional update from one of `from`, so of two
 *   processes settling one quote exactly one succeeds (the other gets None and reads it again).
 * - `report` stores the signed message once: only while none is stored (else None).
 * - Nothing here ever holds a mnemonic or a key; the account is the wallet's public description.
 */
import { Context, type Effect, type Option, Schema } from "effect"
import type { Nanoton } from "../money/Nanoton.ts"
import type { PayerAccount } from "./Marketplace.ts"

export const WalletQuoteKind = Schema.Literals(["stars", "premium", "ton_topup"])
export type WalletQuoteKind = typeof WalletQuoteKind.Type

/**
 * awaiting_payment: quoted, nothing seen on chain yet. paid: the payment is on chain, delivery not
 * read yet. delivered / paid_unconfirmed / expired / failed: final, each reached at most once.
 */
export const WalletQuoteState = Schema.Literals([
  "awaiting_payment",
  "paid",
  "delivered",
  "paid_unconfirmed",
  "expired",
  "failed"
])
export type WalletQuoteState = typeof WalletQuoteState.Type

/** The states a quote can still leave; every other one is final. */
export const OPEN_QUOTE_STATES = ["awaiting_payment", "paid"] as const satisfies ReadonlyArray<WalletQuoteState>

export const isFinalQuoteState = (state: WalletQuoteState): boolean =>
  !(OPEN_QUOTE_STATES as ReadonlyArray<WalletQuoteState>).includes(state)

export interface NewWalletQuote {
  readonly orderId: string
  readonly network: "mainnet" | "testnet" | "sandbox"
  /** The wallet's raw address (`0:<hex>`), lower case: the scope of its order ids. */
  readonly walletAddress: string
  readonly account: PayerAccount
  readonly kind: WalletQuoteKind
  /** SHA-256 of the request (kind, wallet, recipient, units, amount): a repeat is recognised by it. */
  readonly fingerprint: string
  readonly recipient: string
  /** Stars quantity or premium months; null for a TON top-up. */
  readonly units: number | null
  /** TON asked for (top-up); null for stars and premium. */
  readonly amount: Nanoton | null
  /** Fragment's invoice: its id, the `Ref#` of its comment, the message to send and its deadline. */
  readonly reqId: string
  readonly ref: string
  readonly payTo: string
  readonly payAmount: Nanoton
  readonly payload: string
  readonly validUntil: number
}

export interface WalletQuote extends NewWalletQuote {
  readonly id: number
  readonly state: WalletQuoteState
  /** The signed external message the buyer reported (base64 BOC), once. */
  readonly boc: string | null
  /** What Fragment said to `confirmReq` for it: "accepted", "refused" or "unsent". */
  readonly confirm: "accepted" | "refused" | "unsent"
  /** The wallet's transaction that paid, once found on chain, and its chain time. */
  readonly txHash: string | null
  readonly paidAt: number | null
  /** Why the quote settled as it did, in words. */
  readonly note: string | null
  readonly createdAt: Date
  readonly updatedAt: Date
  readonly settledAt: Date | null
}

/** Fields a settle may set; absent fields keep their value. */
export interface WalletQuotePatch {
  readonly confirm?: "accepted" | "refused" | "unsent"
  readonly txHash?: string | null
  readonly paidAt?: number | null
  readonly note?: string | null
}

export type InsertResult =
  | { readonly _tag: "Inserted"; readonly quote: WalletQuote }
  | { readonly _tag: "Existing"; readonly quote: WalletQuote }

export class WalletQuotes extends Context.Service<
  WalletQuotes,
  {
    readonly insert: (quote: NewWalletQuote, now: Date, replacing?: WalletQuote) => Effect.Effect<InsertResult>
    readonly findLatest: (key: {
      readonly network: string
      readonly walletAddress: string
      readonly orderId: string
    }) => Effect.Effect<Option.Option<WalletQuote>>
    readonly settle: (
      id: number,
      from: ReadonlyArray<WalletQuoteState>,
      to: WalletQuoteState,
      patch: WalletQuotePatch,
      now: Date
    ) => Effect.Effect<Option.Option<WalletQuote>>
    readonly report: (id: number, boc: string, now: Date) => Effect.Effect<Option.Option<WalletQuote>>
    /** Latest quotes not settled yet (`awaiting_payment`, `paid`), oldest first: for the watcher. */
    readonly listOpen: (limit: number) => Effect.Effect<ReadonlyArray<WalletQuote>>
  }
>()("core/ports/WalletQuotes") {}
