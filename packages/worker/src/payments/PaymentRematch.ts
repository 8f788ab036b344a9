import type { PaymentId } from "@resale/core/ids.ts"
import type { IncomingPayment } from "@resale/core/payments/IncomingPayment.ts"
import { IncomingPayments } from "@resale/core/ports/IncomingPayments.ts"
import type { Ledger } from "@resale/core/ports/Ledger.ts"
import type { Outbox } from "@resale/core/ports/Outbox.ts"
import { Topups } from "@resale/core/ports/Topups.ts"
import { Transactor } from "@resale/core/ports/Transactor.ts"
import { currentDate } from "@resale/core/Time.ts"
import { confirmTopup } from "@resale/core/topups/confirmTopup.ts"
import type { Topup } from "@resale/core/topups/Topup.ts"
import { Context, Duration, Effect, Layer } from "effect"
import { WorkerConfig } from "../WorkerConfig.ts"

export interface Rematched {
  readonly paymentId: PaymentId
  readonly topup: Topup
}

const PAGE = 200

/**
 * Worker glue over the storage ports (core's `Payments.rematchUnmatched` only looks at top-ups
 * that existed when the payment arrived): an `unmatched` payment is matched to the one live
 * pending card top-up with exactly its amount that was created no later than `rematchWindow`
 * after the payment (the bank message may arrive before the user created the top-up). Exactly one
 * candidate or nothing: never guessed. Confirmation, credit (ledger cause `topup:<id>`) and the
 * payment's `matched` mark commit together; a payment or top-up taken meanwhile rolls it back.
 */
export class PaymentRematch extends Context.Service<PaymentRematch, {
  readonly run: Effect.Effect<ReadonlyArray<Rematched>>
}>()("worker/payments/PaymentRematch") {
  static readonly layer = Layer.effect(
    PaymentRematch,
    Effect.gen(function*() {
      const payments = yield* IncomingPayments
      const topups = yield* Topups
      const tx = yield* Transactor
      const settings = yield* WorkerConfig
      const ports = yield* Effect.context<Topups | Outbox | Ledger>()
      const windowMs = Duration.toMillis(settings.rematchWindow)

      const tryOne = (payment: IncomingPayment, now: Date) =>
        tx.withTransaction(Effect.gen(function*() {
          const live = yield* topups.findLivePendingByPayable(payment.amountUzs, now)
          const candidates = live.filter((t) => t.createdAt.getTime() <= payment.createdAt.getTime() + windowMs)
          const [only] = candidates
          if (candidates.length !== 1 || only === undefined) return undefined
          const topup = yield* confirmTopup({
            topupId: only.id,
            from: ["pending"],
            confirmedBy: "payment",
            paymentId: payment.id,
            now
          }).pipe(Effect.provideContext(ports))
          yield* payments.markMatched(payment.id, topup.id, now)
          return { paymentId: payment.id, topup } satisfies Rematched
        })).pipe(
          // Confirmed or assigned by someone else meanwhile: theirs wins, this attempt rolled back.
          Effect.catchTags({
            PaymentAlreadyMatched: () => Effect.succeed(undefined),
            PaymentNotFound: () => Effect.succeed(undefined),
            TopupNotFound: () => Effect.succeed(undefined),
            TopupTransitionInvalid: () => Effect.succeed(undefined)
          })
        )

      const run = Effect.gen(function*() {
        const now = yield* currentDate
        const matched: Array<Rematched> = []
        // Oldest first; a page shrinks as payments get matched, so walk by offset over what stays.
        let offset = 0
        while (true) {
          const { items } = yield* payments.list({ status: ["unmatched"], offset, limit: PAGE })
          for (const payment of items) {
            const result = yield* tryOne(payment, now)
            if (result === undefined) offset++
            else matched.push(result)
          }
          if (items.length < PAGE) return matched
        }
      }).pipe(Effect.withSpan("PaymentRematch.run"))

      return PaymentRematch.of({ run })
    })
  )
}
