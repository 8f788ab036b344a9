import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import {
  ApproveForm,
  MarkDoneForm,
  PricingForm,
  RefundForm,
  RejectForm,
  ReplyForm
} from "@resale/webkit/FormPayloads.ts"
import * as Dto from "@resale/wire/Dtos.ts"
import { HandlerErrors } from "./Errors.ts"
import { IdempotencyHeader, IntDefault, OrderIdPath, page, TicketIdPath, TopupIdPath } from "@resale/webkit/Fields.ts"
import { OperatorSession } from "./Middleware.ts"

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
      payload: PricingForm,
      success: Dto.Pricing,
      error: HandlerErrors
    }),
    HttpApiEndpoint.post("approveTopup", "/v2/admin/topups/:topup_id/approve", {
      params: topupId,
      headers: IdempotencyHeader,
      payload: ApproveForm,
      success: Dto.Topup,
      error: HandlerErrors
    }),
    HttpApiEndpoint.post("rejectTopup", "/v2/admin/topups/:topup_id/reject", {
      params: topupId,
      payload: RejectForm,
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
      payload: MarkDoneForm,
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
      payload: RefundForm,
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
      payload: ReplyForm,
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
