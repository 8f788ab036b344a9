import { PaymentId, TopupId } from "@resale/core/ids.ts"
import type { IncomingPayment, PaymentStatus } from "@resale/core/payments/IncomingPayment.ts"
import { paymentCandidates } from "@resale/core/payments/PaymentCandidates.ts"
import { Payments } from "@resale/core/payments/Payments.ts"
import { isLocalDate, startOfTashkentDay } from "@resale/core/reports/ReportPeriods.ts"
import type { Topup } from "@resale/core/topups/Topup.ts"
import { TopupService } from "@resale/core/topups/TopupService.ts"
import { Effect, Layer, Option, Schema } from "effect"
import { HttpRouter, HttpServerRequest } from "effect/http"
import { WebSessions } from "@resale/webkit/WebSessions.ts"
import { HttpConfig } from "@resale/webkit/HttpConfig.ts"
import {
  boolField,
  detail,
  errorResponse,
  formFields,
  intField,
  json,
  operatorOnly as operatorOnlyWith,
  pathIdOf,
  queryInt,
  validationFailed,
  type ValidationItem
} from "./RouteKit.ts"

const paymentPathId = pathIdOf(PaymentId)
const topupIdOf = Schema.decodeUnknownOption(TopupId)

/**
 * Bank payments for operators (admin session cookie, JSON answers):
 *
 *   GET  /v2/admin/payments?status=&from=&to=&amount=&offset=&limit=
 *        every reported payment, newest first; `status` one of received, matched, unmatched, ambiguous,
 *        `unresolved` (unmatched and ambiguous: what waits for an operator; the default), `assigned`
 *        (matched by an operator's assignment) or `all`; each says `assigned`; `from`/`to` Tashkent days,
 *        inclusive; `amount` exact UZS. A matched payment names its top-up and that top-up's user; an
 *        unresolved one lists candidate top-ups (core `paymentCandidates`: open, same or near amount, closest first).
 *   POST /v2/admin/payments/:payment_id/assign   form: topup_id, confirm_duplicate?; credits that top-up with the payment
 */
export const PAYMENT_ROUTES = [
  { method: "GET", path: "/v2/admin/payments" },
  { method: "POST", path: "/v2/admin/payments/:payment_id/assign" }
] as const

const STATUSES: ReadonlyArray<string> = ["received", "matched", "unmatched", "ambiguous"]
const UNRESOLVED: ReadonlyArray<PaymentStatus> = ["unmatched", "ambiguous"]
const DAY_MS = 86_400_000

export const PaymentRoutes = Layer.effectDiscard(
  Effect.gen(function* () {
    const router = yield* HttpRouter.HttpRouter
    const sessions = yield* WebSessions
    const config = yield* HttpConfig
    const payments = yield* Payments
    const topups = yield* TopupService
    const operatorOnly = operatorOnlyWith(sessions, config.publicUrl)

    const list = Effect.gen(function* () {
      const query = new URL((yield* HttpServerRequest.HttpServerRequest).url, "http://localhost").searchParams
      const errors: Array<ValidationItem> = []
      const status = query.get("status") ?? ""
      if (
        status !== "" &&
        status !== "all" &&
        status !== "unresolved" &&
        status !== "assigned" &&
        !STATUSES.includes(status)
      ) {
        errors.push({
          type: "literal_error",
          loc: ["query", "status"],
          msg: "Input should be 'all', 'unresolved', 'assigned', 'received', 'matched', 'unmatched' or 'ambiguous'",
          input: status
        })
      }
      const day = (name: string) => {
        const raw = query.get(name) ?? ""
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
      const amountRaw = (query.get("amount") ?? "").replace(/[\s,]/g, "")
      if (amountRaw !== "" && !/^\d{1,12}$/.test(amountRaw))
        errors.push({
          type: "int_parsing",
          loc: ["query", "amount"],
          msg: "Input should be a valid integer",
          input: amountRaw
        })
      if (errors.length > 0) return validationFailed(errors)
      const offset = queryInt(query, "offset", 0)
      const limit = Math.max(1, queryInt(query, "limit", 50, 100))
      const page = yield* payments.list({
        offset,
        limit,
        newestFirst: true,
        ...(status === "all"
          ? {}
          : status === "assigned"
            ? { matchedBy: "operator" as const }
            : { status: status === "" || status === "unresolved" ? UNRESOLVED : [status as PaymentStatus] }),
        ...(from === undefined ? {} : { from: startOfTashkentDay(from) }),
        ...(to === undefined ? {} : { to: new Date(startOfTashkentDay(to).getTime() + DAY_MS) }),
        ...(amountRaw === "" ? {} : { amountUzs: Number(amountRaw) })
      })
      const unresolved = page.items.filter((p) => UNRESOLVED.includes(p.status))
      const open =
        unresolved.length === 0
          ? []
          : (yield* topups.list({ status: ["pending", "review", "expired"], offset: 0, limit: 100 })).items
      // A hint for the operator, never an automatic match; each with the receipt-only credit it may repeat.
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
      return json({
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
      })
    })

    const assign = Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const paymentId = paymentPathId((yield* HttpRouter.params)["payment_id"])
      const errors: Array<ValidationItem> = []
      const fields = yield* formFields(request)
      const topupId = intField(["body", "topup_id"], fields["topup_id"], errors)
      const confirmDuplicate = boolField(["body", "confirm_duplicate"], fields["confirm_duplicate"], errors)
      if (paymentId === undefined)
        errors.push({
          type: "int_parsing",
          loc: ["path", "payment_id"],
          msg: "Input should be a valid integer, unable to parse string as an integer",
          input: null
        })
      if (errors.length > 0 || paymentId === undefined) return validationFailed(errors)
      // A top-up number that does not exist (or cannot: 0 or below) is the operator's typo: a plain 404.
      const topup = topupIdOf(topupId)
      if (Option.isNone(topup))
        return yield* operatorOnly(Effect.succeed(detail(404, "Top-up not found", "topup_not_found")))
      return yield* operatorOnly(
        topups.find({ kind: "operator" }, topup.value).pipe(
          Effect.andThen(payments.assign(paymentId, topup.value, { confirmDuplicate })),
          Effect.map((result) =>
            json({
              payment_id: result.payment.id,
              status: result.payment.status,
              topup_id: Option.match(result.topup, { onNone: () => result.payment.topupId, onSome: (t) => t.id }),
              duplicate: false
            })
          ),
          Effect.catch(errorResponse)
        )
      )
    })

    yield* router.add("GET", "/v2/admin/payments", operatorOnly(list))
    yield* router.add("POST", "/v2/admin/payments/:payment_id/assign", assign)
  })
)
