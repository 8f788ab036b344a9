import { paymentCandidates } from "@resale/core/payments/PaymentCandidates.ts"
import type { Payments } from "@resale/core/payments/Payments.ts"
import type { Topup } from "@resale/core/topups/Topup.ts"
import type { TopupService } from "@resale/core/topups/TopupService.ts"
import { Effect, Option } from "effect"
import type { ListPaging } from "./OperatorLists.ts"
import { isUnresolved, paymentsFilter } from "./PaymentsQuery.ts"

/** The filter as sent: `status`, `from`/`to` (Tashkent days, inclusive), `amount` (exact UZS): `PaymentsQuery`. */
export interface PaymentsQueryText {
  readonly status?: string | undefined
  readonly from?: string | undefined
  readonly to?: string | undefined
  readonly amount?: string | undefined
}

/**
 * Every reported bank payment, newest first, for operators. `status` is one of received, matched,
 * unmatched, ambiguous, `unresolved` (unmatched and ambiguous: what waits for an operator; the default),
 * `assigned` (matched by an operator's assignment) or `all`. A matched payment names its top-up and that
 * top-up's user; an unresolved one lists candidate top-ups (core `paymentCandidates`: open, same or near
 * amount, closest first), each with the receipt-only credit it may repeat: a hint, never a match.
 */
export const paymentsList = (
  payments: Payments["Service"],
  topups: TopupService["Service"],
  query: PaymentsQueryText & ListPaging
) =>
  Effect.gen(function* () {
    const filter = yield* paymentsFilter({ status: query.status, from: query.from, to: query.to, amount: query.amount })
    const { offset, limit } = query
    const page = yield* payments.list({ offset, limit, newestFirst: true, ...filter })
    const unresolved = page.items.filter((p) => isUnresolved(p.status))
    const open =
      unresolved.length === 0
        ? []
        : (yield* topups.list({ status: ["pending", "review", "expired"], offset: 0, limit: 100 })).items
    const pairs = unresolved.flatMap((payment) =>
      paymentCandidates(payment.amountUzs, open).map(({ topup, difference }) => ({ payment, topup, difference }))
    )
    const credited = yield* payments.creditsOnReceipt(pairs)
    // Whose top-up a matched payment credited.
    const owners = new Map<number, Topup>()
    for (const p of page.items) {
      if (p.topupId === null) continue
      const found = yield* Effect.option(topups.find({ kind: "operator" }, p.topupId))
      if (Option.isSome(found)) owners.set(p.id, found.value)
    }
    return {
      total: page.total,
      offset,
      limit,
      payments: page.items.map((p) => ({
        payment_id: p.id,
        amount_uzs: p.amountUzs,
        card_last4: p.cardLast4,
        external_id: p.externalId,
        status: p.status,
        created_at: p.createdAt.toISOString(),
        topup_id: p.topupId,
        topup_user_id: owners.get(p.id)?.userId ?? null,
        // Matched by an operator's assignment rather than by its amount on arrival.
        assigned: owners.get(p.id)?.confirmedBy === "operator",
        candidates: pairs.flatMap((pair, i) =>
          pair.payment.id !== p.id
            ? []
            : [
                {
                  topup_id: pair.topup.id,
                  user_id: pair.topup.userId,
                  status: pair.topup.status,
                  method: pair.topup.method,
                  payable_uzs: pair.topup.payableUzs,
                  requested_uzs: pair.topup.requestedUzs,
                  difference_uzs: pair.difference,
                  created_at: pair.topup.createdAt.toISOString(),
                  credited_on_receipt: Option.match(credited[i]!, { onNone: () => null, onSome: (c) => c.id })
                }
              ]
        )
      }))
    }
  })
