import { Context, type Effect, type Option } from "effect"
import type { PaymentId, TopupId, UserId } from "../ids.ts"
import type { Uzs } from "../money/Uzs.ts"
import type { Page, PageRequest } from "../Page.ts"
import type { ReceiptInfo, Topup, TopupConfirmation, TopupMethod, TopupStatus } from "../topups/Topup.ts"
import type { TopupNotFound, TopupPayableExhausted, TopupTransitionInvalid } from "../topups/TopupErrors.ts"

/** Fields a transition may set; absent fields keep their value. */
export interface TopupPatch {
  readonly creditedUzs?: Uzs
  readonly adminNote?: string | null
  readonly paymentId?: PaymentId
  readonly confirmedBy?: TopupConfirmation
}

export interface TopupFilter extends PageRequest {
  readonly userId?: UserId
  readonly status?: ReadonlyArray<TopupStatus>
  readonly method?: TopupMethod
  /** Cursor: only top-ups older than this id (the last one of the previous page). */
  readonly beforeId?: number
  /** Only top-ups created strictly after this instant. */
  readonly createdAfter?: Date
}

/** Storage of top-ups. All methods are safe under concurrent callers (several app instances). */
export class Topups extends Context.Service<
  Topups,
  {
    /**
     * Inserts a `pending` card top-up. payable = requested + the smallest offset in 0..999 so'm that
     * no open card top-up (`pending`, or `review` after its owner sent a receipt) holds as its payable
     * amount; the adapter guarantees this uniqueness under concurrency (PG: partial unique index on
     * payable over those rows). Amounts of card top-ups closed (paid by an operator, cancelled, rejected,
     * expired) after `quarantineSince` (the service's `TopupSettings`) are skipped too, unless a bank payment
     * confirmed them, so a late payment never matches someone else's top-up. A quarantined amount stays
     * reserved for its own owner only: the owner's cancelled, rejected or expired amounts are free for
     * that owner and preferred (a late payment for one credits the same account), so creating and
     * cancelling again and again holds no new amounts. Fails `TopupPayableExhausted` when all 1,000
     * offsets are taken.
     */
    readonly insertPending: (input: {
      readonly userId: UserId
      readonly requestedUzs: Uzs
      readonly expiresAt: Date
      /** Closed card top-ups created or updated after this instant still hold their amount. */
      readonly quarantineSince: Date
      readonly now: Date
    }) => Effect.Effect<Topup, TopupPayableExhausted>
    /** Inserts a receipt top-up in status `review`; payable = requested, no expiry, no offset. */
    readonly insertReview: (input: {
      readonly userId: UserId
      readonly requestedUzs: Uzs
      readonly receipt: ReceiptInfo
      readonly now: Date
    }) => Effect.Effect<Topup>
    /**
     * The owner sent a receipt for money they may have paid for a card top-up: moves their live
     * `pending` card top-up whose payable amount (preferred) or requested amount is `amountUzs` to
     * `review` with the receipt, keeping its method, payable amount and payable uniqueness. Among
     * several matching by requested amount, the newest. None when there is none; a top-up confirmed,
     * cancelled or expired concurrently is never taken (PG: one conditional UPDATE under row locks).
     */
    readonly attachReceipt: (input: {
      readonly userId: UserId
      readonly amountUzs: Uzs
      readonly receipt: ReceiptInfo
      readonly now: Date
    }) => Effect.Effect<Option.Option<Topup>>
    readonly find: (id: TopupId) => Effect.Effect<Option.Option<Topup>>
    /**
     * What one account holds open, for its caps: live card top-ups waiting for their transfer
     * (`pending`, not past `expiresAt`), and top-ups waiting for an operator (`review`, any method).
     */
    readonly countOpen: (
      userId: UserId,
      now: Date
    ) => Effect.Effect<{ readonly cardPending: number; readonly reviews: number }>
    /** Top-ups, of any user and status, whose receipt file has one of these SHA-256s; newest first, at most 100. */
    readonly listByReceiptSha256: (sha256s: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<Topup>>
    /** Newest first. */
    readonly list: (filter: TopupFilter) => Effect.Effect<Page<Topup>>
    /**
     * Conditional state change: moves the top-up to `to` and applies `patch` only if its current
     * status is one of `from` (PG: `UPDATE ... WHERE id = $1 AND status = ANY($2) RETURNING`, or
     * `SELECT ... FOR UPDATE` first). Fails `TopupNotFound` if absent, `TopupTransitionInvalid`
     * carrying the current status otherwise; writes nothing on failure.
     */
    readonly transition: (
      id: TopupId,
      from: ReadonlyArray<TopupStatus>,
      to: TopupStatus,
      patch: TopupPatch,
      now: Date
    ) => Effect.Effect<Topup, TopupNotFound | TopupTransitionInvalid>
    /** Card top-ups in `pending` whose payable is `amount` and whose `expiresAt` is after `now`. */
    readonly findLivePendingByPayable: (amount: Uzs, now: Date) => Effect.Effect<ReadonlyArray<Topup>>
    /**
     * The top-ups holding `amount` as their payable amount (core's `holdsPayable`: `pending`, or a card
     * top-up in `review`), oldest first; the payable uniqueness makes this at most one. Which of them a
     * bank payment may confirm is core's `matchesPayment`.
     */
    readonly findHoldingPayable: (amount: Uzs) => Effect.Effect<ReadonlyArray<Topup>>
    /**
     * Moves every `pending` top-up with `expiresAt <= now` to `expired` and returns them (each one
     * exactly once, even with concurrent callers).
     */
    readonly expireDue: (now: Date) => Effect.Effect<ReadonlyArray<Topup>>
  }
>()("core/ports/Topups") {}
