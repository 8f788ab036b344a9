/**
 * Storage of direct purchases: one record per order id, so each order id pays at most once.
 *
 * Contract:
 * - `claim` inserts a `pending` record unless the order id exists (then it returns the existing one):
 *   of two concurrent claims of one order id exactly one gets `Claimed` (PG: primary key).
 * - `restart` turns a `failed` record (nothing was paid) back into `pending` with the new request,
 *   attempts + 1; of two concurrent restarts exactly one succeeds.
 * - `transition` is a conditional state change: only from one of `from`, else `DirectRecordConflict`.
 *   `lock: true` also takes the wallet lock (one record per wallet address may hold it; another
 *   holder -> `DirectWalletBusy`, nothing written); `lock: false` releases it. Moving to `done`,
 *   `failed` or `unknown` always releases it.
 * - The signed message (`prepared`: seqno, normalized external hash, valid_until) is written by a
 *   transition that returns before the message is sent.
 * - `list` pages every record (any state), newest first, optionally of one state and/or one kind.
 * - No field ever holds a mnemonic or a key. Storage failures are defects.
 */
import { Context, Effect, Option, Schema } from "effect"
import type { DirectKind, DirectState } from "../direct/DirectPurchase.ts"
import type { Nanoton } from "../money/Nanoton.ts"
import type { Page, PageRequest } from "../Page.ts"
import type { PreparedTransfer, WalletVersion } from "./Blockchain.ts"

export interface DirectPurchaseRecord {
  readonly orderId: string
  readonly kind: DirectKind
  readonly state: DirectState
  /** SHA-256 of the request without the phrase (kind, wallet, recipient, amount, units, comment). */
  readonly fingerprint: string
  readonly network: "mainnet" | "testnet" | "sandbox"
  readonly walletAddress: string
  readonly walletVersion: WalletVersion
  /** Username (purchases) or destination address (transfer). */
  readonly recipient: string
  /** TON asked for (transfer, top-up); null for stars / premium. */
  readonly amount: Nanoton | null
  /** Stars quantity or premium months. */
  readonly units: number | null
  readonly comment: string | null
  /** The marketplace invoice (`req_id`) and the `Ref#` of its payment comment. */
  readonly marketplaceReqId: string | null
  readonly ref: string | null
  /** Where the money goes and how much (marketplace price, or the transfer amount). */
  readonly payTo: string | null
  readonly payAmount: Nanoton | null
  /** The signed external message, stored before sending. */
  readonly prepared: PreparedTransfer | null
  readonly txHash: string | null
  readonly fee: Nanoton | null
  /** True while this record holds its wallet's lock. */
  readonly walletLocked: boolean
  readonly errorReason: string | null
  readonly errorMessage: string | null
  readonly attempts: number
  readonly createdAt: Date
  readonly updatedAt: Date
  readonly completedAt: Date | null
}

export interface NewDirectPurchase {
  readonly orderId: string
  readonly kind: DirectKind
  readonly fingerprint: string
  readonly network: "mainnet" | "testnet" | "sandbox"
  readonly walletAddress: string
  readonly walletVersion: WalletVersion
  readonly recipient: string
  readonly amount: Nanoton | null
  readonly units: number | null
  readonly comment: string | null
}

/** Fields a transition may set; absent fields keep their value. */
export interface DirectPurchasePatch {
  readonly marketplaceReqId?: string | null
  readonly ref?: string | null
  readonly payTo?: string | null
  readonly payAmount?: Nanoton | null
  readonly prepared?: PreparedTransfer | null
  readonly txHash?: string | null
  readonly fee?: Nanoton | null
  readonly errorReason?: string | null
  readonly errorMessage?: string | null
  readonly completedAt?: Date | null
  /** true: take the wallet lock; false: release it; absent: keep. */
  readonly lock?: boolean
}

/** Which records `list` returns; an absent field does not filter. */
export interface DirectPurchaseFilter {
  readonly state?: DirectState
  readonly kind?: DirectKind
}

export type ClaimResult =
  | { readonly _tag: "Claimed"; readonly record: DirectPurchaseRecord }
  | { readonly _tag: "Existing"; readonly record: DirectPurchaseRecord }

/** The record is not in one of the states the transition starts from (or does not exist: state absent). */
export class DirectRecordConflict extends Schema.TaggedError<DirectRecordConflict>()("DirectRecordConflict", {
  orderId: Schema.String,
  state: Schema.optionalKey(Schema.String)
}) {}

/** Another order of the same wallet holds the wallet lock. */
export class DirectWalletBusy extends Schema.TaggedError<DirectWalletBusy>()("DirectWalletBusy", {
  walletAddress: Schema.String
}) {}

export class DirectPurchaseRecords extends Context.Service<DirectPurchaseRecords, {
  readonly claim: (record: NewDirectPurchase, now: Date) => Effect.Effect<ClaimResult>
  /** `failed` -> `pending` with the new request; None when the record is not `failed` (any more). */
  readonly restart: (record: NewDirectPurchase, now: Date) => Effect.Effect<Option.Option<DirectPurchaseRecord>>
  readonly transition: (
    orderId: string,
    from: ReadonlyArray<DirectState>,
    to: DirectState,
    patch: DirectPurchasePatch,
    now: Date
  ) => Effect.Effect<DirectPurchaseRecord, DirectRecordConflict | DirectWalletBusy>
  readonly find: (orderId: string) => Effect.Effect<Option.Option<DirectPurchaseRecord>>
  /** `unknown` records, and `pending`/`sending`/`sent` ones not touched since `staleBefore`; oldest first. */
  readonly listUnresolved: (staleBefore: Date, limit: number) => Effect.Effect<ReadonlyArray<DirectPurchaseRecord>>
  /** Every record matching the filter, newest first (ties by order id); `total` counts all matches. */
  readonly list: (filter: DirectPurchaseFilter, page: PageRequest) => Effect.Effect<Page<DirectPurchaseRecord>>
}>()("core/ports/DirectPurchaseRecords") {}
