import { OrderService } from "@resale/core/orders/OrderService.ts"
import { PricingService } from "@resale/core/pricing/PricingService.ts"
import { OperatorStatus } from "@resale/core/status/OperatorStatus.ts"
import { TicketService } from "@resale/core/tickets/TicketService.ts"
import { TopupService } from "@resale/core/topups/TopupService.ts"
import { statusOut } from "@resale/wire"
import { adminHomeOut, adminTicketsList, adminTopupsOut } from "@resale/wire/OperatorLists.ts"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../api/Api.ts"
import { HttpConfig } from "@resale/webkit/HttpConfig.ts"
import { mapErrors } from "./ErrorMapping.ts"
import { idempotent } from "./Idempotent.ts"
import {
  approveTopup,
  markOrderDone,
  note,
  recheckOrder,
  refundOrder,
  retryOrder,
  setPrices
} from "@resale/webkit/OperatorActions.ts"
import { adminOrderOut, messageOut, pricingOut, ticketOut, topupOut } from "./Wire.ts"

const operator = { kind: "operator" as const }

/** Operator pages and operations (admin session). */
export const AdminHandlers = HttpApiBuilder.group(Api, "admin", (handlers) =>
  Effect.gen(function* () {
    const topups = yield* TopupService
    const orders = yield* OrderService
    const pricing = yield* PricingService
    const tickets = yield* TicketService
    const status = yield* OperatorStatus
    const { sandbox } = yield* HttpConfig

    return handlers
      .handle("root", () => adminHomeOut({ pricing, topups, tickets }, sandbox))
      .handle("status", () => Effect.map(status.read, statusOut))
      .handle("topups", () =>
        Effect.gen(function* () {
          const page = yield* topups.list({ offset: 0, limit: 100 })
          const data = { topups: yield* adminTopupsOut(topups, page.items), total: page.total }
          return data
        })
      )
      .handle("pricing", ({ payload }) =>
        setPrices(payload).pipe(
          Effect.map((p) => pricingOut(p, sandbox)),
          mapErrors
        )
      )
      .handle("approveTopup", ({ headers, params, payload }) =>
        approveTopup(idempotent, headers["idempotency-key"], params, payload).pipe(mapErrors)
      )
      .handle("rejectTopup", ({ params, payload }) =>
        Effect.map(topups.reject(params.topup_id, note(payload.admin_note)), topupOut).pipe(mapErrors)
      )
      .handle("orders", () =>
        Effect.gen(function* () {
          const page = yield* orders.list({ offset: 0, limit: 100 })
          const data = { orders: page.items.map(adminOrderOut), total: page.total }
          return data
        })
      )
      .handle("retryOrder", ({ headers, params }) =>
        retryOrder(idempotent, headers["idempotency-key"], params).pipe(mapErrors)
      )
      .handle("markOrderDone", ({ headers, params, payload }) =>
        markOrderDone(idempotent, headers["idempotency-key"], params, payload).pipe(mapErrors)
      )
      .handle("recheckOrder", ({ headers, params }) =>
        recheckOrder(idempotent, headers["idempotency-key"], params).pipe(mapErrors)
      )
      .handle("refundOrder", ({ headers, params, payload }) =>
        refundOrder(idempotent, headers["idempotency-key"], params, payload).pipe(mapErrors)
      )
      .handle("tickets", () => adminTicketsList(tickets))
      .handle("pollTicket", ({ params, query }) =>
        Effect.gen(function* () {
          const id = params.ticket_id
          const messages = yield* tickets.poll(operator, id, query.after)
          const detail = yield* tickets.detail(operator, id)
          return {
            ticket_id: id,
            status: detail.ticket.status,
            messages: messages.map(messageOut),
            cursor: messages.length > 0 ? messages[messages.length - 1]!.id : query.after
          }
        }).pipe(mapErrors)
      )
      .handle("replyTicket", ({ params, payload }) =>
        Effect.map(tickets.answer(params.ticket_id, payload.body), messageOut).pipe(mapErrors)
      )
      .handle("closeTicket", ({ params }) => Effect.map(tickets.close(params.ticket_id), ticketOut).pipe(mapErrors))
      .handle("reopenTicket", ({ params }) => Effect.map(tickets.reopen(params.ticket_id), ticketOut).pipe(mapErrors))
  })
)
