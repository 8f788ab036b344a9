import { Effect, Layer, Option, Result } from "effect"
import type { TopupId } from "../ids.ts"
import type { Uzs } from "../money/Uzs.ts"
import { type TopupFilter, type TopupPatch, Topups } from "../ports/Topups.ts"
import type { Topup, TopupStatus } from "../topups/Topup.ts"
import { choosePayable, holdsPayable, isLivePending, payableTakenAmong } from "../topups/PayableAmount.ts"
import { TopupNotFound, TopupPayableExhausted, TopupTransitionInvalid } from "../topups/TopupErrors.ts"
import { MemoryDb, nextId } from "./MemoryDb.ts"
import { newestFirst, paginate } from "./paginate.ts"

/** `Topups` over the in-memory database. */
export const MemoryTopups = Layer.effect(
  Topups,
  Effect.gen(function* () {
    const db = yield* MemoryDb
    return Topups.of({
      insertPending: ({ expiresAt, now, quarantineSince, requestedUzs, userId }) =>
        db.run<Topup, TopupPayableExhausted>((s) => {
          // The same choice as the PostgreSQL store's: core's rule over what is taken.
          const payable = choosePayable(requestedUzs, payableTakenAmong(s.topups.values(), userId, quarantineSince))
          if (Option.isNone(payable)) return Result.fail(new TopupPayableExhausted({ requested: requestedUzs }))
          const topup: Topup = {
            id: nextId(s, "topups") as TopupId,
            userId,
            method: "card",
            requestedUzs,
            payableUzs: payable.value,
            creditedUzs: null,
            status: "pending",
            receipt: null,
            adminNote: null,
            paymentId: null,
            confirmedBy: null,
            expiresAt,
            createdAt: now,
            updatedAt: now
          }
          s.topups.set(topup.id, topup)
          return Result.succeed(topup)
        }),
      insertReview: ({ now, receipt, requestedUzs, userId }) =>
        db.read((s) => {
          const topup: Topup = {
            id: nextId(s, "topups") as TopupId,
            userId,
            method: "receipt",
            requestedUzs,
            payableUzs: requestedUzs,
            creditedUzs: null,
            status: "review",
            receipt,
            adminNote: null,
            paymentId: null,
            confirmedBy: null,
            expiresAt: null,
            createdAt: now,
            updatedAt: now
          }
          s.topups.set(topup.id, topup)
          return topup
        }),
      attachReceipt: ({ amountUzs, now, receipt, userId }) =>
        db.read((s) => {
          const live = [...s.topups.values()].filter((t) => t.userId === userId && isLivePending(t, now))
          const target =
            live.find((t) => t.payableUzs === amountUzs) ??
            live.filter((t) => t.requestedUzs === amountUzs).sort((a, b) => b.id - a.id)[0]
          if (target === undefined) return Option.none()
          const next: Topup = { ...target, status: "review", receipt, updatedAt: now }
          s.topups.set(next.id, next)
          return Option.some(next)
        }),
      find: (id) => db.read((s) => Option.fromNullishOr(s.topups.get(id))),
      countOpen: (userId, now) =>
        db.read((s) => {
          const own = [...s.topups.values()].filter((t) => t.userId === userId)
          return {
            cardPending: own.filter((t) => isLivePending(t, now)).length,
            reviews: own.filter((t) => t.status === "review").length
          }
        }),
      listByReceiptSha256: (sha256s) =>
        db.read((s) =>
          [...s.topups.values()]
            .filter((t) => t.receipt?.sha256 != null && sha256s.includes(t.receipt.sha256))
            .sort(newestFirst)
            .slice(0, 100)
        ),
      list: (filter: TopupFilter) =>
        db.read((s) =>
          paginate(
            [...s.topups.values()]
              .filter((t) => filter.userId === undefined || t.userId === filter.userId)
              .filter((t) => filter.status === undefined || filter.status.includes(t.status))
              .filter((t) => filter.method === undefined || t.method === filter.method)
              .filter((t) => filter.beforeId === undefined || t.id < filter.beforeId)
              .filter((t) => filter.createdAfter === undefined || t.createdAt > filter.createdAfter)
              .sort(newestFirst),
            filter
          )
        ),
      transition: (id: TopupId, from: ReadonlyArray<TopupStatus>, to: TopupStatus, patch: TopupPatch, now: Date) =>
        db.run<Topup, TopupNotFound | TopupTransitionInvalid>((s) => {
          const current = s.topups.get(id)
          if (current === undefined) return Result.fail(new TopupNotFound({ topupId: id }))
          if (!from.includes(current.status)) {
            return Result.fail(new TopupTransitionInvalid({ topupId: id, from: current.status, to }))
          }
          const next: Topup = { ...current, ...patch, status: to, updatedAt: now }
          s.topups.set(id, next)
          return Result.succeed(next)
        }),
      findLivePendingByPayable: (amount: Uzs, now: Date) =>
        db.read((s) => [...s.topups.values()].filter((t) => t.payableUzs === amount && isLivePending(t, now))),
      findHoldingPayable: (amount: Uzs) =>
        db.read((s) =>
          [...s.topups.values()].filter((t) => t.payableUzs === amount && holdsPayable(t)).sort((a, b) => a.id - b.id)
        ),
      expireDue: (now: Date) =>
        db.read((s) => {
          const due = [...s.topups.values()].filter(
            (t) => t.status === "pending" && t.expiresAt !== null && t.expiresAt.getTime() <= now.getTime()
          )
          return due.map((t) => {
            const expired: Topup = { ...t, status: "expired", updatedAt: now }
            s.topups.set(t.id, expired)
            return expired
          })
        })
    })
  })
)
