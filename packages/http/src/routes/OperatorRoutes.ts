import type { OrderKind, OrderStatus, TopupStatus } from "@resale/core"
import { TicketId } from "@resale/core/ids.ts"
import { OrderService } from "@resale/core/orders/OrderService.ts"
import { TicketService } from "@resale/core/tickets/TicketService.ts"
import { TopupService } from "@resale/core/topups/TopupService.ts"
import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerRequest } from "effect/http"
import { WebSessions } from "@resale/webkit/WebSessions.ts"
import { adminTopupsOut } from "../handlers/AdminTopupsOut.ts"
import { adminOrderOut, messageOut, ticketOut } from "../handlers/Wire.ts"
import { HttpConfig } from "@resale/webkit/HttpConfig.ts"
import { detail, errorResponse, json, operatorOnly as operatorOnlyWith, pathIdOf, queryInt } from "./RouteKit.ts"

const ticketPathId = pathIdOf(TicketId)

/**
 * Operator routes the panel needs beyond the /v2 contract (admin session cookie, JSON answers):
 *
 * (bank payments: `PaymentRoutes.ts`)
 *   GET  /v2/admin/orders/list                   ?status=&kind=&offset=&limit=
 *   GET  /v2/admin/topups/list                   ?status=a,b&offset=&limit= (with each receipt's type and,
 *                                                for a receipt in review, the credit it may repeat)
 *   GET  /v2/admin/tickets/:ticket_id            the conversation
 */
export const OPERATOR_ROUTES = [
  { method: "GET", path: "/v2/admin/orders/list" },
  { method: "GET", path: "/v2/admin/topups/list" },
  { method: "GET", path: "/v2/admin/tickets/:ticket_id" }
] as const

const ORDER_STATUSES: ReadonlyArray<string> = ["queued", "processing", "completed", "failed", "needs_attention"]
const ORDER_KINDS: ReadonlyArray<string> = ["stars", "premium", "gift"]
const TOPUP_STATUSES: ReadonlyArray<string> = ["pending", "review", "paid", "cancelled", "rejected", "expired"]

const searchOf = (request: HttpServerRequest.HttpServerRequest) => new URL(request.url, "http://localhost").searchParams

export const OperatorRoutes = Layer.effectDiscard(
  Effect.gen(function* () {
    const router = yield* HttpRouter.HttpRouter
    const sessions = yield* WebSessions
    const config = yield* HttpConfig
    const topups = yield* TopupService
    const orders = yield* OrderService
    const tickets = yield* TicketService

    const operatorOnly = operatorOnlyWith(sessions, config.publicUrl)

    const listOrders = Effect.gen(function* () {
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

    const listTopups = Effect.gen(function* () {
      const query = searchOf(yield* HttpServerRequest.HttpServerRequest)
      const statuses = (query.get("status") ?? "")
        .split(",")
        .filter((s) => TOPUP_STATUSES.includes(s)) as Array<TopupStatus>
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

    const ticket = Effect.gen(function* () {
      const id = ticketPathId((yield* HttpRouter.params)["ticket_id"])
      if (id === undefined) return detail(404, "Ticket not found", "ticket_not_found")
      return yield* tickets.detail({ kind: "operator" }, id).pipe(
        Effect.map((d) => json({ ticket: ticketOut(d.ticket), messages: d.messages.map(messageOut) })),
        Effect.catch(errorResponse)
      )
    })

    yield* router.add("GET", "/v2/admin/orders/list", operatorOnly(listOrders))
    yield* router.add("GET", "/v2/admin/topups/list", operatorOnly(listTopups))
    yield* router.add("GET", "/v2/admin/tickets/:ticket_id", operatorOnly(ticket))
  })
)
