import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import {
  GiftForm,
  NewTicketForm,
  ReceiptForm,
  ReplyForm,
  RotateForm,
  TierForm,
  TopupForm
} from "@resale/webkit/FormPayloads.ts"
import * as Dto from "@resale/wire/Dtos.ts"
import { HandlerErrors } from "./Errors.ts"
import { AnyObject, Id, IdempotencyHeader, IntDefault, page, TicketIdPath, TopupIdPath } from "@resale/webkit/Fields.ts"
import { UserSession } from "./Middleware.ts"
import { WebhookDeleted, WebhookEndpointList } from "./WebhooksApi.ts"

/** The signed-in web user's account: dashboard, balance and top-ups, orders, gifts, tickets, push. */
export class AccountApi extends HttpApiGroup.make("account")
  .add(
    HttpApiEndpoint.get("dashboard", "/v2/dashboard", { success: page(Dto.Dashboard) }),
    HttpApiEndpoint.post("rotateApiKey", "/v2/api-key/rotate", {
      payload: RotateForm,
      success: Dto.ApiKey,
      error: HandlerErrors
    }),
    // The signed-in owner's view of the key's webhook endpoints (the API page), and their removal.
    HttpApiEndpoint.get("ownWebhooks", "/v2/api-key/webhooks", { success: WebhookEndpointList }),
    HttpApiEndpoint.post("deleteOwnWebhook", "/v2/api-key/webhooks/:webhook_id/delete", {
      params: { webhook_id: Id },
      success: WebhookDeleted,
      error: HandlerErrors
    }),
    HttpApiEndpoint.get("balance", "/v2/balance", { success: Dto.Balance }),
    HttpApiEndpoint.post("createTopup", "/v2/balance/top-up", {
      headers: IdempotencyHeader,
      payload: TopupForm,
      success: Dto.TopupCreated,
      error: HandlerErrors
    }),
    HttpApiEndpoint.post("cancelTopup", "/v2/balance/topup/:topup_id/cancel", {
      params: { topup_id: TopupIdPath },
      success: Dto.Topup,
      error: HandlerErrors
    }),
    HttpApiEndpoint.post("uploadReceipt", "/v2/balance/top-up/receipt", {
      headers: IdempotencyHeader,
      // Larger receipts answer 400 before the core's own check sees them: the request validator
      // parses the parts within `ReceiptLimits`, built on the server's top-up settings.
      payload: ReceiptForm,
      success: Dto.Topup,
      error: HandlerErrors
    }),
    HttpApiEndpoint.get("topupStatus", "/v2/balance/topup-status", { success: Dto.TopupStatus }),
    HttpApiEndpoint.get("ordersPage", "/v2/orders", { success: page(Dto.OrdersPage) }),
    HttpApiEndpoint.get("ordersList", "/v2/orders/list", {
      query: { offset: IntDefault(0), limit: IntDefault(20) },
      success: Dto.OrdersPage,
      error: HandlerErrors
    }),
    HttpApiEndpoint.get("giftsPage", "/v2/gifts", { success: page(Dto.Gifts), error: HandlerErrors }),
    HttpApiEndpoint.post("buyGift", "/v2/gifts/buy", {
      headers: IdempotencyHeader,
      payload: GiftForm,
      success: Dto.OrderCreated,
      error: HandlerErrors
    }),
    HttpApiEndpoint.post("upgradeInfoTier", "/v2/api-docs/getinfo-upgrade", {
      headers: IdempotencyHeader,
      payload: TierForm,
      success: Dto.TierUpgrade,
      error: HandlerErrors
    }),
    HttpApiEndpoint.get("tickets", "/v2/tickets", { success: page(Dto.Tickets) }),
    HttpApiEndpoint.post("createTicket", "/v2/tickets/new", {
      payload: NewTicketForm,
      success: Dto.TicketDetail,
      error: HandlerErrors
    }),
    HttpApiEndpoint.get("ticket", "/v2/tickets/:ticket_id", {
      params: { ticket_id: TicketIdPath },
      success: page(Dto.TicketDetail),
      error: HandlerErrors
    }),
    HttpApiEndpoint.get("pollTicket", "/v2/tickets/:ticket_id/poll", {
      params: { ticket_id: TicketIdPath },
      query: { after: IntDefault(0) },
      success: Dto.TicketPoll,
      error: HandlerErrors
    }),
    HttpApiEndpoint.post("replyTicket", "/v2/tickets/:ticket_id/reply", {
      params: { ticket_id: TicketIdPath },
      payload: ReplyForm,
      success: Dto.TicketMessage,
      error: HandlerErrors
    }),
    HttpApiEndpoint.post("pushSubscribe", "/v2/push/subscribe", {
      payload: AnyObject,
      success: Dto.Ok,
      error: HandlerErrors
    })
  )
  .middleware(UserSession) {}
