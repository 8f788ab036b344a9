/**
 * The operators' decisions on a top-up: approve (unless it likely repeats a recent credit), mark paid
 * through the admin API, or reject; and the possible duplicates their queue shows.
 */
import { Effect, Option } from "effect"
import type { TopupId } from "../ids.ts"
import type { Ledger } from "../ports/Ledger.ts"
import { Outbox } from "../ports/Outbox.ts"
import { Topups } from "../ports/Topups.ts"
import { Transactor } from "../ports/Transactor.ts"
import { currentDate } from "../Time.ts"
import { confirmTopup } from "./confirmTopup.ts"
import { duplicateAmong, receiptTwins, recentCredits } from "./DuplicateReceipt.ts"
import type { Topup } from "./Topup.ts"
import { TopupPossibleDuplicate } from "./TopupErrors.ts"

/** Builds `TopupService`'s `approve`, `markPaid`, `reject`, `possibleDuplicates` and `possibleDuplicate`. */
export const makeTopupReview = Effect.gen(function* () {
  const topups = yield* Topups
  const outbox = yield* Outbox
  const tx = yield* Transactor
  // confirmTopup is shared with Payments and reads its ports from the context.
  const ports = yield* Effect.context<Topups | Outbox | Ledger>()

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

  return { approve, possibleDuplicates, possibleDuplicate, reject, markPaid }
})
