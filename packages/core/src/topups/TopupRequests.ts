/**
 * The owner's requests on top-ups, each capped per account (`AccountCaps`): a card top-up, a receipt
 * for review, and cancelling one.
 */
import { Effect, Option } from "effect"
import { checkDaily, checkOpen, takeDaily } from "../caps/CapRules.ts"
import { AccountCaps } from "../caps/CapSettings.ts"
import type { TopupId, UserId } from "../ids.ts"
import type { Uzs } from "../money/Uzs.ts"
import { AccountActivity } from "../ports/AccountActivity.ts"
import { Outbox } from "../ports/Outbox.ts"
import { Receipts } from "../ports/Receipts.ts"
import { Topups } from "../ports/Topups.ts"
import { Transactor } from "../ports/Transactor.ts"
import { randomToken, sha256HexOfBytes } from "../Secrets.ts"
import type { Viewer } from "../sessions/Session.ts"
import { addMillis, currentDate } from "../Time.ts"
import { sniffReceiptType } from "./ReceiptRules.ts"
import type { Topup } from "./Topup.ts"
import { ReceiptInvalid, TopupAmountInvalid, type TopupNotFound } from "./TopupErrors.ts"
import { quarantineSince, TopupSettings } from "./TopupSettings.ts"

/** Builds `TopupService`'s `create`, `createWithReceipt` and `cancel`, over the service's own `find`. */
export const makeTopupRequests = (find: (viewer: Viewer, topupId: TopupId) => Effect.Effect<Topup, TopupNotFound>) =>
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

    return { create, createWithReceipt, cancel }
  })
