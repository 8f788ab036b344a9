/**
 * Storage of direct purchases. An order id belongs to its wallet: at most one *latest* record per
 * (network, wallet address, order id), so each order id of a wallet pays at most once at a time, and
 * no wallet can see or block another's ids. Older records of an id stay, marked as not latest.
 *
 * Contract:
 * - `claim` inserts a `pending` latest record unless the wallet's order id has one (then it returns
 *   that one): of two concurrent claims exactly one gets `Claimed` (PG: partial unique index).
 * - `supersede` retires a finished (`done` / `failed`) latest record and inserts the new request as the
 *   latest under the same id; of two concurrent supersedes of one record exactly one succeeds.
 * - Records are addressed by their own `id` afterwards.
 * - `transition` is a conditional state change: only from one of `from`, else `DirectRecordConflict`.
 *   `lock: true` also takes the wallet lock (one record per wallet address may hold it; another
 *   holder -> `DirectWalletBusy`, nothing written); `lock: false` releases it. Moving to `done`,
 *   `failed` or `unknown` always releases it.
 * - The signed message (`prepared`: seqno, normalized external hash, valid_until) is written by a
 *   transition that returns before the message is sent.
 * - `list` pages every record (any state), newest first, optionally of one state and/or one kind.
 * - No field ever holds a mnemonic or a key. Storage failures are defects.
 */
import { Context, type Effect, type Option, Schema } from "effect"
import type { DirectKind, DirectState } from "../direct/DirectPurchase.ts"
import type { Nanoton } from "../money/Nanoton.ts"
import type { Page, PageRequest } from "../Page.ts"
import type { PreparedTransfer, WalletVersion } from "./Blockchain.ts"

export interface DirectPurchaseRecord {
  /** The record's own key (an order id may name several records over time, of several wallets). */
  readonly id: number
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
  id: Schema.Number,
  state: Schema.optionalKey(Schema.String)
}) {}

/** Another order of the same wallet holds the wallet lock. */
export class DirectWalletBusy extends Schema.TaggedError<DirectWalletBusy>()("DirectWalletBusy", {
  walletAddress: Schema.String
}) {}

export class DirectPurchaseRecords extends Context.Service<
  DirectPurchaseRecords,
  {
    readonly claim: (record: NewDirectPurchase, now: Date) => Effect.Effect<ClaimResult>
    /** Retires `previous` (still latest, `done` or `failed`) for `record`; None when someone else moved first. */
    readonly supersede: (
      previous: DirectPurchaseRecord,
      record: NewDirectPurchase,
      now: Date
    ) => Effect.Effect<Option.Option<DirectPurchaseRecord>>
    readonly transition: (
      id: number,
      from: ReadonlyArray<DirectState>,
      to: DirectState,
      patch: DirectPurchasePatch,
      now: Date
    ) => Effect.Effect<DirectPurchaseRecord, DirectRecordConflict | DirectWalletBusy>
    readonly find: (id: number) => Effect.Effect<Option.Option<DirectPurchaseRecord>>
    /** The latest record of a wallet's order id. */
    readonly findLatest: (key: {
      readonly network: string
      readonly walletAddress: string
      readonly orderId: string
    }) => Effect.Effect<Option.Option<DirectPurchaseRecord>>
    /** Every record under an order id, of any wallet, newest first: for operators. */
    readonly findByOrderId: (orderId: string) => Effect.Effect<ReadonlyArray<DirectPurchaseRecord>>
    /** `unknown` records, and `pending`/`sending`/`sent` ones not touched since `staleBefore`; oldest first. */
    readonly listUnresolved: (staleBefore: Date, limit: number) => Effect.Effect<ReadonlyArray<DirectPurchaseRecord>>
    /** Every record matching the filter, newest first (ties by order id); `total` counts all matches. */
    readonly list: (filter: DirectPurchaseFilter, page: PageRequest) => Effect.Effect<Page<DirectPurchaseRecord>>
  }
>()("core/ports/DirectPurchaseRecords") {}
