import { Context, Effect, Layer, Option } from "effect"
import type { AccountCapReached } from "../caps/AccountCapReached.ts"
import { checkDaily, checkOpen, takeDaily } from "../caps/CapRules.ts"
import { AccountCaps } from "../caps/CapSettings.ts"
import { AccountActivity } from "../ports/AccountActivity.ts"
import type { TopupId, UserId } from "../ids.ts"
import type { Uzs } from "../money/Uzs.ts"
import type { Page, PageRequest } from "../Page.ts"
import type { Ledger } from "../ports/Ledger.ts"
import { Outbox } from "../ports/Outbox.ts"
import { Receipts } from "../ports/Receipts.ts"
import { type TopupFilter, Topups } from "../ports/Topups.ts"
import { Transactor } from "../ports/Transactor.ts"
import { randomToken, sha256HexOfBytes } from "../Secrets.ts"
import { canSee, type Viewer } from "../sessions/Session.ts"
import { addMillis, currentDate } from "../Time.ts"
import { confirmTopup } from "./confirmTopup.ts"
import { duplicateAmong, type PossibleDuplicate, receiptTwins, recentCredits } from "./DuplicateReceipt.ts"
import { sniffReceiptType } from "./ReceiptRules.ts"
import type { Topup, TopupStatus } from "./Topup.ts"
import {
  ReceiptInvalid,
  ReceiptNotFound,
  TopupAmountInvalid,
  TopupNotFound,
  type TopupPayableExhausted,
  TopupPossibleDuplicate,
  type TopupTransitionInvalid
} from "./TopupErrors.ts"
import { quarantineSince, TopupSettings } from "./TopupSettings.ts"

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
      const activity = yield* AccountActivity
      // Read once when the service is built (from config at the composition root), like its ports.
      const caps = yield* AccountCaps
      // Read here, never per call: an override provided to this layer is what every call sees.
      const settings = yield* TopupSettings
      const { maxUzs, minUzs, receiptMaxBytes, ttlMs } = settings
      const capped = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
        effect.pipe(Effect.provideService(AccountActivity, activity), Effect.provideService(AccountCaps, caps))
      // confirmTopup is shared with Payments and reads its ports from the context.
      const ports = yield* Effect.context<Topups | Outbox | Ledger>()

      const checkAmount = Effect.fn("TopupService.checkAmount")(function* (amount: number) {
        if (!Number.isSafeInteger(amount) || amount < minUzs || amount > maxUzs) {
          return yield* new TopupAmountInvalid({ amount, min: minUzs, max: maxUzs })
        }
        return amount as Uzs
      })

      const create = Effect.fn("TopupService.create")(function* (userId: UserId, amountUzs: number) {
        const requestedUzs = yield* checkAmount(amountUzs)
        const now = yield* currentDate
        return yield* tx.withTransaction(
          Effect.gen(function* () {
            yield* activity.lock(userId)
            yield* checkOpen("OpenCardTopups", (yield* topups.countOpen(userId, now)).cardPending)
            yield* takeDaily(userId, "topup.create", now)
            return yield* topups.insertPending({
              userId,
              requestedUzs,
              expiresAt: addMillis(now, ttlMs),
              quarantineSince: quarantineSince(settings, now),
              now
            })
          })
        )
      }, capped)

      const createWithReceipt = Effect.fn("TopupService.createWithReceipt")(function* (
        userId: UserId,
        amountUzs: number,
        bytes: Uint8Array
      ) {
        const requestedUzs = yield* checkAmount(amountUzs)
        if (bytes.length === 0)
          return yield* new ReceiptInvalid({ reason: "Empty", message: "the receipt file is empty" })
        if (bytes.length > receiptMaxBytes) {
          return yield* new ReceiptInvalid({
            reason: "TooLarge",
            message: `the receipt is larger than ${receiptMaxBytes} bytes`
          })
        }
        const contentType = sniffReceiptType(bytes)
        if (contentType === undefined) {
          return yield* new ReceiptInvalid({
            reason: "UnsupportedType",
            message: "the receipt must be an image or a PDF"
          })
        }
        // Refused before the file is stored, so a capped account cannot fill the receipt store either;
        // checked again under the account's lock when the row is written.
        const now = yield* currentDate
        const withinCaps = Effect.gen(function* () {
          yield* checkOpen("OpenReviews", (yield* topups.countOpen(userId, now)).reviews)
          yield* checkDaily(userId, "receipt.upload", now)
        })
        yield* withinCaps
        // Stored before the row: a crash in between leaves an unreferenced file, never a row without its file.
        const key = `receipts/${userId}/${yield* randomToken(18)}`
        yield* receipts.put(key, bytes, contentType)
        const info = { key, contentType, size: bytes.length, sha256: yield* sha256HexOfBytes(bytes) }
        return yield* tx.withTransaction(
          Effect.gen(function* () {
            yield* activity.lock(userId)
            yield* withinCaps
            yield* activity.record(userId, "receipt.upload", now)
            const attached = yield* topups.attachReceipt({ userId, amountUzs: requestedUzs, receipt: info, now })
            const topup = Option.isSome(attached)
              ? attached.value
              : yield* topups.insertReview({ userId, requestedUzs, receipt: info, now })
            yield* outbox.add(
              {
                kind: "topup.review",
                userId: null,
                payload: { topupId: topup.id, userId, amountUzs: topup.payableUzs }
              },
              now
            )
            return topup
          })
        )
      }, capped)

      const find = Effect.fn("TopupService.find")(function* (viewer: Viewer, topupId: TopupId) {
        const found = yield* topups.find(topupId)
        if (Option.isNone(found) || !canSee(viewer, found.value.userId)) return yield* new TopupNotFound({ topupId })
        return found.value
      })

      const cancel = Effect.fn("TopupService.cancel")(function* (userId: UserId, topupId: TopupId) {
        yield* find({ kind: "user", userId }, topupId)
        const now = yield* currentDate
        return yield* tx.withTransaction(
          Effect.gen(function* () {
            yield* takeDaily(userId, "topup.cancel", now)
            return yield* topups.transition(topupId, ["pending", "review"], "cancelled", {}, now)
          })
        )
      }, capped)

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

      const confirm = (topupId: TopupId, confirmedBy: "operator" | "admin_api", adminNote?: string) =>
        Effect.gen(function* () {
          const now = yield* currentDate
          return yield* tx.withTransaction(
            confirmTopup({
              topupId,
              from: ["pending", "review"],
              confirmedBy,
              now,
              ...(adminNote === undefined ? {} : { adminNote })
            })
          )
        }).pipe(Effect.provideContext(ports))

      const possibleDuplicates = (items: ReadonlyArray<Topup>) =>
        Effect.gen(function* () {
          const inReview = items.filter((t) => t.status === "review")
          const credits = yield* recentCredits(inReview.map((t) => t.userId))
          const twins = yield* receiptTwins(inReview)
          return items.map((t) => duplicateAmong(t, credits.get(t.userId) ?? [], twins))
        }).pipe(Effect.provideService(Topups, topups))

      const possibleDuplicate = (topup: Topup) => Effect.map(possibleDuplicates([topup]), ([found]) => found!)

      const approve = Effect.fn("TopupService.approve")(function* (
        topupId: TopupId,
        adminNote?: string,
        options?: { readonly confirmDuplicate?: boolean }
      ) {
        const found = options?.confirmDuplicate === true ? Option.none() : yield* topups.find(topupId)
        const duplicate = Option.isSome(found) ? yield* possibleDuplicate(found.value) : Option.none()
        if (Option.isSome(found) && Option.isSome(duplicate)) {
          return yield* new TopupPossibleDuplicate({
            topupId,
            duplicateOf: duplicate.value.of.id,
            reason: duplicate.value.reason,
            amountUzs: found.value.payableUzs,
            creditedAt: duplicate.value.of.updatedAt
          })
        }
        return yield* confirm(topupId, "operator", adminNote)
      })

      const markPaid = Effect.fn("TopupService.markPaid")(function* (topupId: TopupId) {
        return yield* confirm(topupId, "admin_api")
      })

      const reject = Effect.fn("TopupService.reject")(function* (topupId: TopupId, adminNote?: string) {
        const now = yield* currentDate
        return yield* tx.withTransaction(
          Effect.gen(function* () {
            const topup = yield* topups.transition(
              topupId,
              ["pending", "review"],
              "rejected",
              {
                ...(adminNote === undefined ? {} : { adminNote })
              },
              now
            )
            yield* outbox.add(
              {
                kind: "topup.rejected",
                userId: topup.userId,
                payload: { topupId, amountUzs: topup.requestedUzs, note: adminNote ?? "" }
              },
              now
            )
            return topup
          })
        )
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
