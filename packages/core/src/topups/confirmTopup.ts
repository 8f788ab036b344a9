import { Effect, Option } from "effect"
import type { PaymentId, TopupId } from "../ids.ts"
import { type BalanceMovement, balanceMovement } from "../ledger/BalanceMovement.ts"
import { credit, type Uzs } from "../money/Uzs.ts"
import { Ledger } from "../ports/Ledger.ts"
import { Outbox } from "../ports/Outbox.ts"
import { Topups } from "../ports/Topups.ts"
import type { Topup, TopupConfirmation, TopupStatus } from "./Topup.ts"
import { TopupNotFound } from "./TopupErrors.ts"

/** The credit of a confirmed top-up: `amount` so'm, cause `topup:<id>` (once per top-up), noting who confirmed it. */
export const topupCredit = (topup: Pick<Topup, "id" | "userId">, amount: Uzs, by: TopupConfirmation): BalanceMovement =>
  balanceMovement({
    userId: topup.userId,
    amount: credit(amount),
    cause: "topup",
    causeId: `${topup.id}`,
    note: by === "payment" ? "card payment" : `confirmed by ${by}`
  })

/**
 * Marks a top-up paid and credits it (ledger cause `topup:<id>`), plus its notification. Call
 * inside a transaction: the state change, the credit and the event commit together or not at all.
 * The conditional transition makes a second confirmation of one top-up fail
 * `TopupTransitionInvalid`, and the unique ledger cause would refuse a second credit anyway.
 * `amount` defaults to the payable amount (what the user was told to pay).
 */
export const confirmTopup = Effect.fn("confirmTopup")(function* (input: {
  readonly topupId: TopupId
  readonly from: ReadonlyArray<TopupStatus>
  readonly amount?: Uzs
  readonly confirmedBy: TopupConfirmation
  readonly paymentId?: PaymentId
  readonly adminNote?: string | null
  readonly now: Date
}) {
  const topups = yield* Topups
  const ledger = yield* Ledger
  const outbox = yield* Outbox
  const found = yield* topups.find(input.topupId)
  if (Option.isNone(found)) return yield* new TopupNotFound({ topupId: input.topupId })
  const amount = input.amount ?? found.value.payableUzs
  const topup = yield* topups.transition(
    input.topupId,
    input.from,
    "paid",
    {
      creditedUzs: amount,
      confirmedBy: input.confirmedBy,
      ...(input.paymentId === undefined ? {} : { paymentId: input.paymentId }),
      ...(input.adminNote === undefined ? {} : { adminNote: input.adminNote })
    },
    input.now
  )
  const { entry } = yield* ledger
    .post(topupCredit(topup, amount, input.confirmedBy))
    .pipe(Effect.catchTag("InsufficientBalance", Effect.die)) // a credit cannot overdraw
  yield* outbox.add(
    {
      kind: "topup.paid",
      userId: topup.userId,
      payload: { topupId: topup.id, amountUzs: amount, balanceUzs: entry.balanceAfter }
    },
    input.now
  )
  return topup
})
