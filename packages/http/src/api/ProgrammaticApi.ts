import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import * as Dto from "@resale/wire/Dtos.ts"
import { HandlerErrors } from "./Errors.ts"
import {
  AdminTokenHeader,
  ApiKeyHeader,
  Float,
  IdempotencyHeader,
  Int,
  NullableBool,
  NullableStr,
  OrderIdPath,
  Str,
  TopupIdPath
} from "@resale/webkit/Fields.ts"
import { AdminTokenAuth, ApiKeyAuth } from "./Middleware.ts"

export const StarsOrderRequest = Schema.Struct({ username: Str, amount: Int }).annotate({
  identifier: "StarsOrderRequest"
})
export const PremiumOrderRequest = Schema.Struct({ username: Str, duration: Int }).annotate({
  identifier: "PremiumOrderRequest"
})
export const GiftOrderRequest = Schema.Struct({
  username: Str,
  gift_id: Str,
  comment: NullableStr,
  account: NullableStr,
  anonymous: NullableBool
}).annotate({ identifier: "GiftOrderRequest" })
export const NameRequest = Schema.Struct({ username: Str }).annotate({ identifier: "NameRequest" })
export const IncomingPaymentRequest = Schema.Struct({
  amount_uzs: Float,
  card_last4: NullableStr,
  external_id: NullableStr
}).annotate({ identifier: "IncomingPaymentRequest" })

export const TopupRequest = Schema.Struct({
  amount_uzs: Int.annotate({ description: "The amount to credit, in UZS." })
}).annotate({ identifier: "TopupRequest" })

const userHeaders = { ...ApiKeyHeader, ...IdempotencyHeader }

/** The API-key API (`X-API-Key`). */
export class ProgrammaticApi extends HttpApiGroup.make("api")
  .add(
    HttpApiEndpoint.get("balance", "/v2/api/balance", { headers: ApiKeyHeader, success: Dto.Balance }),
    HttpApiEndpoint.post("buyStars", "/v2/api/stars/buy", {
      headers: userHeaders,
      payload: StarsOrderRequest,
      success: Dto.OrderCreated,
      error: HandlerErrors
    }),
    HttpApiEndpoint.post("buyPremium", "/v2/api/premium/buy", {
      headers: userHeaders,
      payload: PremiumOrderRequest,
      success: Dto.OrderCreated,
      error: HandlerErrors
    }),
    HttpApiEndpoint.post("buyGift", "/v2/api/gift/buy", {
      headers: userHeaders,
      payload: GiftOrderRequest,
      success: Dto.OrderCreated,
      error: HandlerErrors
    }),
    // Not in the original service: an integrator that placed an order follows it here.
    HttpApiEndpoint.get("order", "/v2/api/orders/:order_id", {
      params: { order_id: OrderIdPath },
      headers: ApiKeyHeader,
      success: Dto.Order,
      error: HandlerErrors
    }),
    // The account's card top-up with a JSON body, so that a script needs no form encoding.
    HttpApiEndpoint.post("createTopup", "/v2/api/topups", {
      headers: userHeaders,
      payload: TopupRequest,
      success: Dto.TopupCreated,
      error: HandlerErrors
    }),
    HttpApiEndpoint.get("topup", "/v2/api/topups/:topup_id", {
      params: { topup_id: TopupIdPath },
      headers: ApiKeyHeader,
      success: Dto.Topup,
      error: HandlerErrors
    }),
    HttpApiEndpoint.get("gifts", "/v2/api/gifts", { headers: ApiKeyHeader, success: Dto.Gifts, error: HandlerErrors }),
    HttpApiEndpoint.post("getInfo", "/v2/api/getInfo", {
      headers: ApiKeyHeader,
      payload: NameRequest,
      success: Dto.InfoLookup,
      error: HandlerErrors
    })
  )
  .middleware(ApiKeyAuth) {}

/** Operator calls of the programmatic API (`X-Admin-Token`). */
export class AdminProgrammaticApi extends HttpApiGroup.make("apiAdmin")
  .add(
    HttpApiEndpoint.post("markPaid", "/v2/api/admin/topups/:topup_id/mark-paid", {
      params: { topup_id: TopupIdPath },
      headers: { ...AdminTokenHeader, ...IdempotencyHeader },
      success: Dto.Topup,
      error: HandlerErrors
    }),
    HttpApiEndpoint.post("incomingPayment", "/v2/api/admin/payments/incoming", {
      headers: { ...AdminTokenHeader, ...IdempotencyHeader },
      payload: IncomingPaymentRequest,
      success: Dto.IncomingPaymentResult,
      error: HandlerErrors
    })
  )
  .middleware(AdminTokenAuth) {}
