import type { OrderKind, OrderStatus, TopupStatus } from "@resale/core"
import { PaymentId, TicketId, TopupId } from "@resale/core/ids.ts"
import { OrderService } from "@resale/core/orders/OrderService.ts"
import { Payments } from "@resale/core/payments/Payments.ts"
import { TicketService } from "@resale/core/tickets/TicketService.ts"
import { TopupService } from "@resale/core/topups/TopupService.ts"
import { Effect, Layer, Option, Schema } from "effect"
import { HttpRouter, HttpServerRequest } from "effect/http"
import { WebSessions } from "../../auth/WebSessions.ts"
import { adminTopupsOut } from "../../handlers/AdminTopupsOut.ts"
import { adminOrderOut, messageOut, ticketOut } from "../../handlers/Wire.ts"
import { HttpConfig } from "../../server/HttpConfig.ts"
import { boolField, detail, errorResponse, formFields, intField, json, operatorOnly as operatorOnlyWith, pathIdOf, queryInt, validationFailed, type ValidationItem } from "./RouteKit.ts"

const paymentPathId = pathIdOf(PaymentId)
const ticketPathId = pathIdOf(TicketId)
const topupIdOf = Schema.decodeUnknownOption(TopupId)

/**
 * Operator routes the panel needs beyond the /v2 contract (admin session cookie, JSON answers):
 *
 *   GET  /v2/admin/payments                      unmatched and ambiguous bank payments, with candidate top-ups
 *   POST /v2/admin/payments/:payment_id/assign   form: topup_id, confirm_duplicate?; credits that top-up with the payment
 *   GET  /v2/admin/orders/list                   ?status=&kind=&offset=&limit=
 *   GET  /v2/admin/topups/list                   ?status=a,b&offset=&limit= (with each receipt's type and,
 *                                                for a receipt in review, the credit it may repeat)
 *   GET  /v2/admin/tickets/:ticket_id            the conversation
 */
export const OPERATOR_ROUTES = [
  { method: "GET", path: "/v2/admin/payments" },
  { method: "POST", path: "/v2/admin/payments/:payment_id/assign" },
  { method: "GET", path: "/v2/admin/orders/list" },
  { method: "GET", path: "/v2/admin/topups/list" },
  { method: "GET", path: "/v2/admin/tickets/:ticket_id" }
] as const

const ORDER_STATUSES: ReadonlyArray<string> = ["queued", "processing", "completed", "failed", "needs_attention"]
const ORDER_KINDS: ReadonlyArray<string> = ["stars", "premium", "gift"]
const TOPUP_STATUSES: ReadonlyArray<string> = ["pending", "review", "paid", "cancelled", "rejected", "expired"]

const searchOf = (request: HttpServerRequest.HttpServerRequest) => new URL(request.url, "http://localhost").searchParams


export const OperatorRoutes = Layer.effectDiscard(Effect.gen(function*() {
  const router = yield* HttpRouter.HttpRouter
  const sessions = yield* WebSessions
  const config = yield* HttpConfig
  const payments = yield* Payments
  const topups = yield* TopupService
  const orders = yield* OrderService
  const tickets = yield* TicketService

  const operatorOnly = operatorOnlyWith(sessions, config.publicUrl)

  const listPayments = Effect.gen(function*() {
    const page = yield* payments.list({ status: ["unmatched", "ambiguous"], offset: 0, limit: 100 })
    const open = yield* topups.list({ status: ["pending", "review", "expired"], offset: 0, limit: 100 })
    // A hint for the operator, never an automatic match: top-ups whose amount equals the payment's,
    // each with the receipt-only credit of its owner this payment may already be (assign then needs confirm_duplicate).
    const pairs = page.items.flatMap((payment) =>
      open.items
        .filter((t) => t.payableUzs === payment.amountUzs || t.requestedUzs === payment.amountUzs)
        .map((topup) => ({ payment, topup }))
    )
    const credited = yield* payments.creditsOnReceipt(pairs)
    const hints = pairs.map(({ payment, topup }, i) => ({
      paymentId: payment.id,
      candidate: {
        topup_id: topup.id,
        user_id: topup.userId,
        status: topup.status,
        payable_uzs: topup.payableUzs,
        credited_on_receipt: Option.match(credited[i]!, { onNone: () => null, onSome: (c) => c.id })
      }
    }))
    return json({
      total: page.total,
      payments: page.items.map((p) => ({
        payment_id: p.id,
        amount_uzs: p.amountUzs,
        card_last4: p.cardLast4,
        external_id: p.externalId,
        status: p.status,
        created_at: p.createdAt.toISOString(),
        // A hint for the operator, never an automatic match: top-ups whose amount equals the payment's.
        candidates: hints.filter((h) => h.paymentId === p.id).map((h) => h.candidate)
      }))
    })
  })

  const assign = Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const paymentId = paymentPathId((yield* HttpRouter.params)["payment_id"])
    const errors: Array<ValidationItem> = []
    const fields = yield* formFields(request)
    const topupId = intField(["body", "topup_id"], fields["topup_id"], errors)
    const confirmDuplicate = boolField(["body", "confirm_duplicate"], fields["confirm_duplicate"], errors)
    if (paymentId === undefined) errors.push({ type: "int_parsing", loc: ["path", "payment_id"], msg: "Input should be a valid integer, unable to parse string as an integer", input: null })
    if (errors.length > 0 || paymentId === undefined) return validationFailed(errors)
    // A top-up number that does not exist (or cannot: 0 or below) is the operator's typo: a plain 404.
    const topup = topupIdOf(topupId)
    if (Option.isNone(topup)) return yield* operatorOnly(Effect.succeed(detail(404, "Top-up not found", "topup_not_found")))
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

  const listOrders = Effect.gen(function*() {
    const query = searchOf(yield* HttpServerRequest.HttpServerRequest)
    const status = query.get("status") ?? ""
    const kind = query.get("kind") ?? ""
    const offset = queryInt(query, "offset", 0)
    const limit = Math.max(1, queryInt(query, "limit", 50, 100))
    const page = yield* orders.list({
      offset,
      limit,
      ...(ORDER_STATUSES.includes(status) ? { status: [status as OrderStatus] } : {}),
      ...(ORDER_KINDS.includes(kind) ? { kind: kind as OrderKind } : {})
    })
    return json({ orders: page.items.map(adminOrderOut), total: page.total, offset, limit })
  })

  const listTopups = Effect.gen(function*() {
    const query = searchOf(yield* HttpServerRequest.HttpServerRequest)
    const statuses = (query.get("status") ?? "").split(",").filter((s) => TOPUP_STATUSES.includes(s)) as Array<TopupStatus>
    const offset = queryInt(query, "offset", 0)
    const limit = Math.max(1, queryInt(query, "limit", 50, 100))
    const page = yield* topups.list({ offset, limit, ...(statuses.length > 0 ? { status: statuses } : {}) })
    const listed = yield* adminTopupsOut(topups, page.items)
    return json({
      topups: listed.map((t, i) => ({ ...t, receipt_type: page.items[i]!.receipt?.contentType ?? null })),
      total: page.total,
      offset,
      limit
    })
  })

  const ticket = Effect.gen(function*() {
    const id = ticketPathId((yield* HttpRouter.params)["ticket_id"])
    if (id === undefined) return detail(404, "Ticket not found", "ticket_not_found")
    return yield* tickets.detail({ kind: "operator" }, id).pipe(
      Effect.map((d) => json({ ticket: ticketOut(d.ticket), messages: d.messages.map(messageOut) })),
      Effect.catch(errorResponse)
    )
  })

  yield* router.add("GET", "/v2/admin/payments", operatorOnly(listPayments))
  yield* router.add("POST", "/v2/admin/payments/:payment_id/assign", assign)
  yield* router.add("GET", "/v2/admin/orders/list", operatorOnly(listOrders))
  yield* router.add("GET", "/v2/admin/topups/list", operatorOnly(listTopups))
  yield* router.add("GET", "/v2/admin/tickets/:ticket_id", operatorOnly(ticket))
}))
