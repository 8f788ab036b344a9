import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "effect/http-api"
import * as Dto from "@resale/wire/Dtos.ts"
import { HandlerErrors } from "./Errors.ts"
import {
  AnyObject,
  BoolDefaultFalse,
  File,
  Id,
  IdempotencyHeader,
  Int,
  IntDefault,
  IntText,
  page,
  Str,
  StrDefaultEmpty,
  TicketIdPath,
  TopupIdPath
} from "./Fields.ts"
import { UserSession } from "./Middleware.ts"
import { WebhookDeleted, WebhookEndpointList } from "./WebhooksApi.ts"

const form = <F extends Schema.Struct.Fields>(fields: F) => Schema.Struct(fields).pipe(HttpApiSchema.asFormUrlEncoded())

const KeepWebhooks = BoolDefaultFalse.annotate({
  description: "Keep the webhook endpoints registered with the old key; by default they are removed with it."
})
/** The rotation's one choice: a form field, as every post of the signed-in surface (the page's checkbox too). */
const RotateRequest = form({ keep_webhooks: KeepWebhooks })

/** The signed-in web user's account: dashboard, balance and top-ups, orders, gifts, tickets, push. */
export class AccountApi extends HttpApiGroup.make("account")
  .add(
    HttpApiEndpoint.get("dashboard", "/v2/dashboard", { success: page(Dto.Dashboard) }),
    HttpApiEndpoint.post("rotateApiKey", "/v2/api-key/rotate", {
      payload: RotateRequest,
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
      payload: form({ amount_uzs: Int }),
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
      payload: Schema.Struct({ amount_uzs: IntText, receipt: File }).pipe(HttpApiSchema.asMultipart()),
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
      payload: form({ username: Str, gift_id: Str, comment: StrDefaultEmpty }),
      success: Dto.OrderCreated,
      error: HandlerErrors
    }),
    HttpApiEndpoint.post("upgradeInfoTier", "/v2/api-docs/getinfo-upgrade", {
      headers: IdempotencyHeader,
      payload: form({ tier: Int }),
      success: Dto.TierUpgrade,
      error: HandlerErrors
    }),
    HttpApiEndpoint.get("tickets", "/v2/tickets", { success: page(Dto.Tickets) }),
    HttpApiEndpoint.post("createTicket", "/v2/tickets/new", {
      payload: form({ subject: StrDefaultEmpty, body: StrDefaultEmpty }),
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
      payload: form({ body: StrDefaultEmpty }),
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
