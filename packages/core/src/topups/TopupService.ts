import { Context, Effect, Layer, Option } from "effect"
import type { AccountCapReached } from "../caps/AccountCapReached.ts"
import type { TopupId, UserId } from "../ids.ts"
import type { Page } from "../Page.ts"
import { Receipts } from "../ports/Receipts.ts"
import { type TopupFilter, Topups } from "../ports/Topups.ts"
import { Transactor } from "../ports/Transactor.ts"
import { Outbox } from "../ports/Outbox.ts"
import { canSee, type Viewer } from "../sessions/Session.ts"
import { currentDate } from "../Time.ts"
import type { PossibleDuplicate } from "./DuplicateReceipt.ts"
import type { Topup } from "./Topup.ts"
import {
  type ReceiptInvalid,
  ReceiptNotFound,
  type TopupAmountInvalid,
  TopupNotFound,
  type TopupPayableExhausted,
  type TopupPossibleDuplicate,
  type TopupTransitionInvalid
} from "./TopupErrors.ts"
import { makeTopupRequests } from "./TopupRequests.ts"
import { makeTopupReview } from "./TopupReview.ts"

type Transition = TopupNotFound | TopupTransitionInvalid

/**
 * Top-ups of the UZS balance. Crediting happens exactly once (ledger cause `topup:<id>`), in the
 * same transaction as the move to `paid`, with a notification. The amount credited is the
 * payable amount: what a card user actually transferred (requested + offset), and the stated
 * amount of a receipt top-up.
 */
export class TopupService extends Context.Service<
  TopupService,
  {
    /**
     * A card top-up: `pending`, with a unique payable amount and an expiry. Capped per account
     * (`AccountCaps`): card top-ups open at once, and created per 24 h.
     */
    readonly create: (
      userId: UserId,
      amountUzs: number
    ) => Effect.Effect<Topup, TopupAmountInvalid | TopupPayableExhausted | AccountCapReached>
    /**
     * The payment receipt (image or PDF, checked by content), for an operator to review. When the
     * owner has a live pending card top-up whose payable (or requested) amount is `amountUzs`, the
     * receipt goes to THAT top-up, which moves to `review` keeping its payable amount: one top-up per
     * payment, so a bank match and an operator's approve cannot both credit it. Otherwise a new
     * `review` top-up of the stated amount. The file's SHA-256 is kept (the same file again is a
     * possible duplicate). Capped per account: top-ups in review at once, and uploads per 24 h,
     * checked before the file is stored.
     */
    readonly createWithReceipt: (
      userId: UserId,
      amountUzs: number,
      receipt: Uint8Array
    ) => Effect.Effect<Topup, TopupAmountInvalid | ReceiptInvalid | AccountCapReached>
    /** The owner cancels a `pending` or `review` top-up; capped per 24 h per account. */
    readonly cancel: (userId: UserId, topupId: TopupId) => Effect.Effect<Topup, Transition | AccountCapReached>
    /** The owner's (or an operator's) view of one top-up; someone else's is `TopupNotFound`. */
    readonly find: (viewer: Viewer, topupId: TopupId) => Effect.Effect<Topup, TopupNotFound>
    /** The owner's top-ups, newest first (the status poll reads the `pending` / `review` ones). */
    readonly listOwn: (userId: UserId, filter: Omit<TopupFilter, "userId">) => Effect.Effect<Page<Topup>>
    /** Operators: all top-ups, filtered. */
    readonly list: (filter: TopupFilter) => Effect.Effect<Page<Topup>>
    /** The receipt file, for its owner or an operator. */
    readonly receipt: (
      viewer: Viewer,
      topupId: TopupId
    ) => Effect.Effect<{ readonly bytes: Uint8Array; readonly contentType: string }, TopupNotFound | ReceiptNotFound>
    /**
     * Operator: `pending` or `review` -> `paid`, credits the payable amount. A top-up a bank payment
     * confirmed first fails `TopupTransitionInvalid` (from `paid`): a conflict, never a second credit.
     * A receipt top-up repeating a recent credit of the same amount (`possibleDuplicate`) fails
     * `TopupPossibleDuplicate` unless `confirmDuplicate` says the operator checked it is a second payment.
     */
    readonly approve: (
      topupId: TopupId,
      adminNote?: string,
      options?: { readonly confirmDuplicate?: boolean }
    ) => Effect.Effect<Topup, Transition | TopupPossibleDuplicate>
    /** For each top-up, the one it most likely repeats and why (see `DuplicateReceipt`), for the operator's queue. */
    readonly possibleDuplicates: (
      items: ReadonlyArray<Topup>
    ) => Effect.Effect<ReadonlyArray<Option.Option<PossibleDuplicate>>>
    /** `possibleDuplicates` of one top-up. */
    readonly possibleDuplicate: (topup: Topup) => Effect.Effect<Option.Option<PossibleDuplicate>>
    /** Operator: `pending` or `review` -> `rejected`. */
    readonly reject: (topupId: TopupId, adminNote?: string) => Effect.Effect<Topup, Transition>
    /** Admin API: `pending` or `review` -> `paid`, credits the payable amount. */
    readonly markPaid: (topupId: TopupId) => Effect.Effect<Topup, Transition>
    /** Worker: expires card top-ups past their expiry; returns them. */
    readonly expireDue: Effect.Effect<ReadonlyArray<Topup>>
  }
>()("core/topups/TopupService") {
  static readonly layer = Layer.effect(
    TopupService,
    Effect.gen(function* () {
      const topups = yield* Topups
      const receipts = yield* Receipts
      const outbox = yield* Outbox
      const tx = yield* Transactor

      const find = Effect.fn("TopupService.find")(function* (viewer: Viewer, topupId: TopupId) {
        const found = yield* topups.find(topupId)
        if (Option.isNone(found) || !canSee(viewer, found.value.userId)) return yield* new TopupNotFound({ topupId })
        return found.value
      })

      const listOwn = Effect.fn("TopupService.listOwn")(function* (
        userId: UserId,
        filter: Omit<TopupFilter, "userId">
      ) {
        return yield* topups.list({ ...filter, userId })
      })

      const list = Effect.fn("TopupService.list")(function* (filter: TopupFilter) {
        return yield* topups.list(filter)
      })

      const receipt = Effect.fn("TopupService.receipt")(function* (viewer: Viewer, topupId: TopupId) {
        const topup = yield* find(viewer, topupId)
        if (topup.receipt === null) return yield* new ReceiptNotFound({ topupId })
        const file = yield* receipts.get(topup.receipt.key)
        if (Option.isNone(file)) return yield* new ReceiptNotFound({ topupId })
        return { bytes: file.value.bytes, contentType: topup.receipt.contentType }
      })

      const expireDue = Effect.gen(function* () {
        const now = yield* currentDate
        return yield* tx.withTransaction(
          Effect.gen(function* () {
            const expired = yield* topups.expireDue(now)
            for (const topup of expired) {
              yield* outbox.add(
                {
                  kind: "topup.expired",
                  userId: topup.userId,
                  payload: { topupId: topup.id, amountUzs: topup.payableUzs }
                },
                now
              )
            }
            return expired
          })
        )
      }).pipe(Effect.withSpan("TopupService.expireDue"))

      const { create, createWithReceipt, cancel } = yield* makeTopupRequests(find)
      const { approve, possibleDuplicates, possibleDuplicate, reject, markPaid } = yield* makeTopupReview

      return TopupService.of({
        create,
        createWithReceipt,
        cancel,
        find,
        listOwn,
        list,
        receipt,
        approve,
        possibleDuplicates,
        possibleDuplicate,
        reject,
        markPaid,
        expireDue
      })
    })
  )
}
