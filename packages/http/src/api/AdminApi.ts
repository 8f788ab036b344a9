import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "effect/http-api"
import * as Dto from "@resale/wire/Dtos.ts"
import { HandlerErrors } from "./Errors.ts"
import {
  BoolDefaultFalse,
  IdempotencyHeader,
  Int,
  IntDefault,
  OrderIdPath,
  page,
  StrDefaultEmpty,
  TicketIdPath,
  TopupIdPath
} from "@resale/webkit/Fields.ts"
import { OperatorSession } from "./Middleware.ts"

const form = <F extends Schema.Struct.Fields>(fields: F) => Schema.Struct(fields).pipe(HttpApiSchema.asFormUrlEncoded())
const topupId = { topup_id: TopupIdPath }
const orderId = { order_id: OrderIdPath }
const ticketId = { ticket_id: TicketIdPath }

/** Operator pages and operations (admin session cookie). `/v2/admin/` reaches `root` (trailing slashes are ignored). */
export class AdminApi extends HttpApiGroup.make("admin")
  .add(
    HttpApiEndpoint.get("root", "/v2/admin", { success: page(Dto.AdminHome) }),
    HttpApiEndpoint.get("status", "/v2/admin/status", { success: Dto.AdminStatus }),
    HttpApiEndpoint.get("topups", "/v2/admin/topups", { success: page(Dto.AdminTopups) }),
    HttpApiEndpoint.post("pricing", "/v2/admin/pricing", {
      payload: form({
        star_price_uzs: Int,
        premium_3_month_uzs: Int,
        premium_6_month_uzs: Int,
        premium_12_month_uzs: Int
      }),
      success: Dto.Pricing,
      error: HandlerErrors
    }),
    HttpApiEndpoint.post("approveTopup", "/v2/admin/topups/:topup_id/approve", {
      params: topupId,
      headers: IdempotencyHeader,
      // confirm_duplicate: the operator checked that a receipt repeating a recent credit is a second payment.
      payload: form({ admin_note: StrDefaultEmpty, confirm_duplicate: BoolDefaultFalse }),
      success: Dto.Topup,
      error: HandlerErrors
    }),
    HttpApiEndpoint.post("rejectTopup", "/v2/admin/topups/:topup_id/reject", {
      params: topupId,
      payload: form({ admin_note: StrDefaultEmpty }),
      success: Dto.Topup,
      error: HandlerErrors
    }),
    HttpApiEndpoint.get("orders", "/v2/admin/orders", { success: page(Dto.AdminOrders) }),
    HttpApiEndpoint.post("retryOrder", "/v2/admin/orders/:order_id/retry", {
      params: orderId,
      headers: IdempotencyHeader,
      success: Dto.Order,
      error: HandlerErrors
    }),
    HttpApiEndpoint.post("markOrderDone", "/v2/admin/orders/:order_id/mark-done", {
      params: orderId,
      headers: IdempotencyHeader,
      payload: form({ tx_id: StrDefaultEmpty }),
      success: Dto.Order,
      error: HandlerErrors
    }),
    // An order whose delivery stayed unknown past the limit (`needs_attention`): look again, or refund it once.
    HttpApiEndpoint.post("recheckOrder", "/v2/admin/orders/:order_id/recheck", {
      params: orderId,
      headers: IdempotencyHeader,
      success: Dto.Order,
      error: HandlerErrors
    }),
    HttpApiEndpoint.post("refundOrder", "/v2/admin/orders/:order_id/refund", {
      params: orderId,
      headers: IdempotencyHeader,
      payload: form({ note: StrDefaultEmpty }),
      success: Dto.Order,
      error: HandlerErrors
    }),
    HttpApiEndpoint.get("tickets", "/v2/admin/tickets", { success: page(Dto.Tickets) }),
    HttpApiEndpoint.get("pollTicket", "/v2/admin/tickets/:ticket_id/poll", {
      params: ticketId,
      query: { after: IntDefault(0) },
      success: Dto.TicketPoll,
      error: HandlerErrors
    }),
    HttpApiEndpoint.post("replyTicket", "/v2/admin/tickets/:ticket_id/reply", {
      params: ticketId,
      payload: form({ body: StrDefaultEmpty }),
      success: Dto.TicketMessage,
      error: HandlerErrors
    }),
    HttpApiEndpoint.post("closeTicket", "/v2/admin/tickets/:ticket_id/close", {
      params: ticketId,
      success: Dto.Ticket,
      error: HandlerErrors
    }),
    HttpApiEndpoint.post("reopenTicket", "/v2/admin/tickets/:ticket_id/reopen", {
      params: ticketId,
      success: Dto.Ticket,
      error: HandlerErrors
    })
  )
  .middleware(OperatorSession) {}
