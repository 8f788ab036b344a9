import type { PaymentStatus } from "@resale/core/payments/IncomingPayment.ts"
import { paymentCandidates } from "@resale/core/payments/PaymentCandidates.ts"
import type { Payments } from "@resale/core/payments/Payments.ts"
import { isLocalDate, startOfTashkentDay } from "@resale/core/reports/ReportPeriods.ts"
import type { Topup } from "@resale/core/topups/Topup.ts"
import type { TopupService } from "@resale/core/topups/TopupService.ts"
import { Effect, Option } from "effect"
import type { ListPaging } from "./OperatorLists.ts"
import { type QueryFieldRefused, QueryInvalid } from "./QueryInvalid.ts"

/** The filter as sent: `status`, `from`/`to` (Tashkent days, inclusive), `amount` (exact UZS). */
export interface PaymentsQueryText {
  readonly status?: string | undefined
  readonly from?: string | undefined
  readonly to?: string | undefined
  readonly amount?: string | undefined
}

const STATUSES: ReadonlyArray<string> = ["received", "matched", "unmatched", "ambiguous"]
const UNRESOLVED: ReadonlyArray<PaymentStatus> = ["unmatched", "ambiguous"]
const DAY_MS = 86_400_000

const statusRefused = (status: string): QueryFieldRefused => ({
  type: "literal_error",
  loc: ["query", "status"],
  msg: "Input should be 'all', 'unresolved', 'assigned', 'received', 'matched', 'unmatched' or 'ambiguous'",
  input: status
})

/** The storage filter of the query, or what is wrong with it. */
const filterOf = (query: PaymentsQueryText) => {
  const errors: Array<QueryFieldRefused> = []
  const status = query.status ?? ""
  if (
    status !== "" &&
    status !== "all" &&
    status !== "unresolved" &&
    status !== "assigned" &&
    !STATUSES.includes(status)
  )
    errors.push(statusRefused(status))
  const day = (name: "from" | "to") => {
    const raw = query[name] ?? ""
    if (raw !== "" && !isLocalDate(raw))
      errors.push({
        type: "date_from_datetime_parsing",
        loc: ["query", name],
        msg: "Input should be a valid date",
        input: raw
      })
    return raw === "" || !isLocalDate(raw) ? undefined : raw
  }
  const from = day("from")
  const to = day("to")
  const amount = (query.amount ?? "").replace(/[\s,]/g, "")
  if (amount !== "" && !/^\d{1,12}$/.test(amount))
    errors.push({
      type: "int_parsing",
      loc: ["query", "amount"],
      msg: "Input should be a valid integer",
      input: amount
    })
  if (errors.length > 0) return new QueryInvalid({ refused: errors })
  return {
    ...(status === "all"
      ? {}
      : status === "assigned"
        ? { matchedBy: "operator" as const }
        : { status: status === "" || status === "unresolved" ? UNRESOLVED : [status as PaymentStatus] }),
    ...(from === undefined ? {} : { from: startOfTashkentDay(from) }),
    ...(to === undefined ? {} : { to: new Date(startOfTashkentDay(to).getTime() + DAY_MS) }),
    ...(amount === "" ? {} : { amountUzs: Number(amount) })
  }
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
    const filter = filterOf(query)
    if (filter instanceof QueryInvalid) return yield* filter
    const { offset, limit } = query
    const page = yield* payments.list({ offset, limit, newestFirst: true, ...filter })
    const unresolved = page.items.filter((p) => UNRESOLVED.includes(p.status))
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
