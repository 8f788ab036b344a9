import { Context, Duration, Effect, Layer, Option } from "effect"
import type { PaymentId, TopupId } from "../ids.ts"
import type { Ledger } from "../ports/Ledger.ts"
import { IncomingPayments, type PaymentFilter } from "../ports/IncomingPayments.ts"
import { Outbox } from "../ports/Outbox.ts"
import { Topups } from "../ports/Topups.ts"
import { Transactor } from "../ports/Transactor.ts"
import type { Page } from "../Page.ts"
import { currentDate } from "../Time.ts"
import { confirmTopup } from "../topups/confirmTopup.ts"
import { creditedOnReceiptFor, recentCredits } from "../topups/DuplicateReceipt.ts"
import { matchesPayment } from "../topups/PayableAmount.ts"
import type { Topup } from "../topups/Topup.ts"
import type { TopupNotFound, TopupTransitionInvalid } from "../topups/TopupErrors.ts"
import type { IncomingPayment } from "./IncomingPayment.ts"
import {
  type PaymentAlreadyMatched,
  PaymentInvalid,
  PaymentNotFound,
  PaymentPossibleDuplicate
} from "./PaymentErrors.ts"

export interface IncomingPaymentInput {
  readonly amountUzs: number
  readonly cardLast4?: string | null | undefined
  readonly externalId?: string | null | undefined
}

/**
 * What happened to a reported payment:
 * - matched:   it confirmed exactly one top-up (now `paid` and credited)
 * - unmatched: no live pending (or in-review card) top-up has this payable amount; stored for an operator
 * - ambiguous: several have; stored for an operator, never guessed
 * - duplicate: this external id was reported before; the first record is returned, nothing moved
 */
export interface RematchOptions {
  /** How long after a payment a top-up may have been opened and still receive it; default zero. */
  readonly window?: Duration.Input
}

/** Unmatched payments read per page by the re-match. */
const REMATCH_PAGE = 200

export type PaymentOutcome = "matched" | "unmatched" | "ambiguous" | "duplicate"

export interface PaymentResult {
  readonly outcome: PaymentOutcome
  readonly payment: IncomingPayment
  readonly topup: Option.Option<Topup>
}

/** Card payments from the bank-message relay, matched by exact amount to pending top-ups. */
export class Payments extends Context.Service<
  Payments,
  {
    /**
     * Records a payment and, when exactly one card top-up has this payable amount (live `pending`, or
     * `review` because its owner also sent a receipt), marks it paid and credits it, all in one
     * transaction. When that top-up's owner was credited this amount on a receipt alone shortly
     * before, the payment may be that money: it is stored `ambiguous` for an operator instead.
     * Idempotent by `externalId`. A top-up an operator approved first is `paid` and no candidate: the
     * payment stays unmatched for an operator, never a second credit.
     */
    readonly incoming: (input: IncomingPaymentInput) => Effect.Effect<PaymentResult, PaymentInvalid>
    /**
     * Worker: tries every `unmatched` payment again against the top-ups `incoming` would take that were
     * created no later than `window` after the payment arrived (the bank message may come before its
     * owner opened the top-up; a top-up opened later belongs to someone who has not paid). Exactly the
     * rules of `incoming`: one candidate or nothing, and a payment that a receipt-only credit of the
     * candidate's owner may already be becomes `ambiguous` for an operator, never a second credit.
     * Returns what changed (matched, or held as ambiguous).
     */
    readonly rematchUnmatched: (options?: RematchOptions) => Effect.Effect<ReadonlyArray<PaymentResult>>
    /**
     * Operator: confirms a top-up (`pending`, `review` or `expired`) with a stored unmatched or
     * ambiguous payment, crediting the amount actually received. When the owner was credited this
     * amount on a receipt alone shortly before (see `DuplicateReceipt`), fails
     * `PaymentPossibleDuplicate` unless `confirmDuplicate` says the operator checked it is other money.
     */
    readonly assign: (
      paymentId: PaymentId,
      topupId: TopupId,
      options?: { readonly confirmDuplicate?: boolean }
    ) => Effect.Effect<
      PaymentResult,
      PaymentNotFound | PaymentAlreadyMatched | PaymentPossibleDuplicate | TopupNotFound | TopupTransitionInvalid
    >
    /** For each payment and top-up, the receipt-only credit assigning one to the other would most likely repeat (operator's hints). */
    readonly creditsOnReceipt: (
      pairs: ReadonlyArray<{ readonly payment: IncomingPayment; readonly topup: Topup }>
    ) => Effect.Effect<ReadonlyArray<Option.Option<Topup>>>
    /** `creditsOnReceipt` of one pair. */
    readonly creditedOnReceipt: (payment: IncomingPayment, topup: Topup) => Effect.Effect<Option.Option<Topup>>
    readonly find: (paymentId: PaymentId) => Effect.Effect<IncomingPayment, PaymentNotFound>
    /** Operators: oldest first. */
    readonly list: (filter: PaymentFilter) => Effect.Effect<Page<IncomingPayment>>
  }
>()("core/payments/Payments") {
  static readonly layer = Layer.effect(
    Payments,
    Effect.gen(function* () {
      const payments = yield* IncomingPayments
      const topups = yield* Topups
      const outbox = yield* Outbox
      const tx = yield* Transactor
      const ports = yield* Effect.context<Topups | Outbox | Ledger>()

      const validate = Effect.fn("Payments.validate")(function* (input: IncomingPaymentInput) {
        const { amountUzs } = input
        if (!Number.isSafeInteger(amountUzs) || amountUzs <= 0) {
          return yield* new PaymentInvalid({
            reason: "Amount",
            message: "amount_uzs must be a positive whole number of so'm"
          })
        }
        const cardLast4 = input.cardLast4?.trim() || null
        if (cardLast4 !== null && !/^\d{4}$/.test(cardLast4)) {
          return yield* new PaymentInvalid({ reason: "CardLast4", message: "card_last4 must be four digits" })
        }
        const externalId = input.externalId?.trim() || null
        if (externalId !== null && externalId.length > 200) {
          return yield* new PaymentInvalid({
            reason: "ExternalId",
            message: "external_id is longer than 200 characters"
          })
        }
        return { amountUzs: amountUzs as IncomingPayment["amountUzs"], cardLast4, externalId }
      })

      const creditsOnReceipt = (pairs: ReadonlyArray<{ readonly payment: IncomingPayment; readonly topup: Topup }>) =>
        Effect.map(recentCredits(pairs.map((p) => p.topup.userId)), (credits) =>
          pairs.map((p) => creditedOnReceiptFor(p.topup, p.payment, credits.get(p.topup.userId) ?? []))
        ).pipe(Effect.provideService(Topups, topups))

      const creditedOnReceipt = (payment: IncomingPayment, topup: Topup) =>
        Effect.map(creditsOnReceipt([{ payment, topup }]), ([found]) => found!)

      // The top-ups a payment may confirm now: the holders of its amount, as core's `matchesPayment` says.
      const matchable = (payment: IncomingPayment, now: Date) =>
        Effect.map(topups.findHoldingPayable(payment.amountUzs), (held) => held.filter((t) => matchesPayment(t, now)))

      // Inside a transaction. A top-up lost to a concurrent confirmation leaves the payment unmatched;
      // a payment claimed concurrently (operator assign) fails the whole transaction.
      const settle = (payment: IncomingPayment, candidates: ReadonlyArray<Topup>, now: Date) =>
        Effect.gen(function* () {
          const [only] = candidates
          // The one candidate's owner was credited this very amount on a receipt alone: the payment
          // may be that money or this top-up's, so it waits for an operator (ambiguous), never guessed.
          const receiptCredit =
            only === undefined || candidates.length !== 1
              ? Option.none<Topup>()
              : yield* creditedOnReceipt(payment, only)
          if (candidates.length === 1 && only !== undefined && Option.isNone(receiptCredit)) {
            const confirmed = yield* confirmTopup({
              topupId: only.id,
              // review: a card top-up whose owner also sent a receipt, still waiting for an operator
              from: ["pending", "review"],
              confirmedBy: "payment",
              paymentId: payment.id,
              now
            }).pipe(Effect.provideContext(ports), Effect.option)
            if (Option.isSome(confirmed)) {
              const matched = yield* payments.markMatched(payment.id, only.id, now)
              return { outcome: "matched", payment: matched, topup: confirmed } satisfies PaymentResult
            }
          }
          const status = candidates.length > 1 || Option.isSome(receiptCredit) ? "ambiguous" : "unmatched"
          const stored = yield* payments.markUnresolved(payment.id, status, now)
          if (payment.status === "received") {
            yield* outbox.add(
              {
                kind: "payment.unmatched",
                userId: null,
                payload: { paymentId: payment.id, amountUzs: payment.amountUzs, candidates: candidates.length }
              },
              now
            )
          }
          return { outcome: status, payment: stored, topup: Option.none() } satisfies PaymentResult
        })

      const incoming = Effect.fn("Payments.incoming")(function* (input: IncomingPaymentInput) {
        const fields = yield* validate(input)
        const now = yield* currentDate
        return yield* tx.withTransaction(
          Effect.gen(function* () {
            const { created, payment } = yield* payments.record(fields, now)
            if (!created) {
              const topup = payment.topupId === null ? Option.none() : yield* topups.find(payment.topupId)
              return { outcome: "duplicate", payment, topup } satisfies PaymentResult
            }
            const candidates = yield* matchable(payment, now)
            // The payment row was inserted by this very transaction: nobody else can have claimed it.
            return yield* settle(payment, candidates, now).pipe(Effect.orDie)
          })
        )
      })

      // One payment, in its own transaction: the same candidates as `incoming` (created no later than
      // `windowMs` after the payment) and the same `settle`, so the same rules hold for every path.
      const rematchOne = (payment: IncomingPayment, windowMs: number, now: Date) =>
        tx
          .withTransaction(
            Effect.gen(function* () {
              const candidates = (yield* matchable(payment, now)).filter(
                (t) => t.createdAt.getTime() <= payment.createdAt.getTime() + windowMs
              )
              // Nothing to do: leave the payment as it is rather than rewriting its status.
              if (candidates.length !== 1) return undefined
              return yield* settle(payment, candidates, now)
            })
          )
          .pipe(
            // Assigned by an operator meanwhile: theirs wins, this attempt rolled back.
            Effect.catchTags({ PaymentAlreadyMatched: () => Effect.void, PaymentNotFound: () => Effect.void })
          )

      const rematchUnmatched = Effect.fn("Payments.rematchUnmatched")(function* (options?: RematchOptions) {
        const now = yield* currentDate
        const windowMs = Math.max(0, Duration.toMillis(Duration.fromInputUnsafe(options?.window ?? Duration.zero)))
        const results: Array<PaymentResult> = []
        // Oldest first; a page shrinks as payments leave `unmatched`, so walk by offset over what stays.
        let offset = 0
        while (true) {
          const { items } = yield* payments.list({ status: ["unmatched"], offset, limit: REMATCH_PAGE })
          for (const payment of items) {
            const result = yield* rematchOne(payment, windowMs, now)
            if (result === undefined || result.outcome === "unmatched") offset++
            if (result?.outcome === "matched" || result?.outcome === "ambiguous") results.push(result)
          }
          if (items.length < REMATCH_PAGE) return results
        }
      })

      const find = Effect.fn("Payments.find")(function* (paymentId: PaymentId) {
        const found = yield* payments.find(paymentId)
        if (Option.isNone(found)) return yield* new PaymentNotFound({ paymentId })
        return found.value
      })

      const assign = Effect.fn("Payments.assign")(function* (
        paymentId: PaymentId,
        topupId: TopupId,
        options?: { readonly confirmDuplicate?: boolean }
      ) {
        const now = yield* currentDate
        if (options?.confirmDuplicate !== true) {
          const payment = yield* find(paymentId)
          const target = yield* topups.find(topupId)
          if (Option.isSome(target)) {
            const credited = yield* creditedOnReceipt(payment, target.value)
            if (Option.isSome(credited)) {
              return yield* new PaymentPossibleDuplicate({
                paymentId,
                topupId,
                creditedTopupId: credited.value.id,
                amountUzs: payment.amountUzs
              })
            }
          }
        }
        return yield* tx.withTransaction(
          Effect.gen(function* () {
            const payment = yield* find(paymentId)
            // Claim the payment first: a payment that already confirmed something stops here.
            const matched = yield* payments.markMatched(paymentId, topupId, now)
            const topup = yield* confirmTopup({
              topupId,
              from: ["pending", "review", "expired"],
              amount: payment.amountUzs,
              confirmedBy: "operator",
              paymentId,
              now
            }).pipe(Effect.provideContext(ports))
            return { outcome: "matched", payment: matched, topup: Option.some(topup) } satisfies PaymentResult
          })
        )
      })

      const list = Effect.fn("Payments.list")(function* (filter: PaymentFilter) {
        return yield* payments.list(filter)
      })

      return Payments.of({ incoming, rematchUnmatched, assign, creditsOnReceipt, creditedOnReceipt, find, list })
    })
  )
}
