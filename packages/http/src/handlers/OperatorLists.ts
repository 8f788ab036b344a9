import { TicketId } from "@resale/core/ids.ts"
import { OrderService } from "@resale/core/orders/OrderService.ts"
import { TicketService } from "@resale/core/tickets/TicketService.ts"
import { TopupService } from "@resale/core/topups/TopupService.ts"
import { adminOrdersList, adminTopupsList, listPaging, ticketDetailOut } from "@resale/wire/OperatorLists.ts"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../api/Api.ts"
import { NotFound } from "../api/Errors.ts"
import { pathIdOf } from "@resale/webkit/PanelFields.ts"
import { mapErrors } from "./ErrorMapping.ts"

const ticketIdOf = pathIdOf(TicketId)

/** The operator panel's lists (`api/OperatorListsApi.ts`); the pages draw the same queries. */
export const OperatorListsHandlers = HttpApiBuilder.group(Api, "operatorLists", (handlers) =>
  Effect.gen(function* () {
    const orders = yield* OrderService
    const topups = yield* TopupService
    const tickets = yield* TicketService
    return handlers
      .handle("ordersList", ({ query }) =>
        adminOrdersList(orders, { ...listPaging(query.offset, query.limit), status: query.status, kind: query.kind })
      )
      .handle("topupsList", ({ query }) =>
        adminTopupsList(topups, { ...listPaging(query.offset, query.limit), status: query.status })
      )
      .handle("ticket", ({ params }) => {
        const id = ticketIdOf(params.ticket_id)
        if (id === undefined) return Effect.fail(new NotFound({ detail: "Ticket not found", code: "ticket_not_found" }))
        return tickets.detail({ kind: "operator" }, id).pipe(Effect.map(ticketDetailOut), mapErrors)
      })
  })
)
