import { OrderKind, OrderStatus } from "@resale/core/orders/Order.ts"
import { TopupMethod, TopupStatus } from "@resale/core/topups/Topup.ts"
import { Effect, Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import * as Dto from "@resale/wire/Dtos.ts"
import { HandlerErrors } from "./Errors.ts"
import { ApiKeyHeader, Id, Int, OptionalStr } from "@resale/webkit/Fields.ts"
import { ApiKeyAuth } from "./Middleware.ts"

/** Largest page of a cursor list; a `limit` outside 1..100 answers FastAPI's 422, as `Query(ge=1, le=100)` does. */
export const LIST_LIMIT_MAX = 100

const pageQuery = {
  limit: Int.check(Schema.isGreaterThanOrEqualTo(1), Schema.isLessThanOrEqualTo(LIST_LIMIT_MAX))
    .annotate({ description: `Items per page, 1 to ${LIST_LIMIT_MAX}.` })
    .pipe(Schema.withDecodingDefaultKey(Effect.succeed(20))),
  cursor: Schema.optionalKey(
    Id.annotate({
      description: "The `next_cursor` of the previous page: only items older than it. Absent for the first page."
    })
  ),
  created_after: OptionalStr.annotate({
    description: "Only items created strictly after this instant (ISO 8601 date-time)."
  })
}

export const OrderList = Schema.Struct({
  orders: Schema.Array(Dto.Order),
  has_more: Schema.Boolean,
  next_cursor: Schema.NullOr(Schema.Int)
}).annotate({ identifier: "OrderList", description: "One page of orders, newest first." })

export const TopupList = Schema.Struct({
  topups: Schema.Array(Dto.Topup),
  has_more: Schema.Boolean,
  next_cursor: Schema.NullOr(Schema.Int)
}).annotate({ identifier: "TopupList", description: "One page of top-ups, newest first." })

/** The API-key lists: an integrator's orders and top-ups, newest first, by cursor. */
export class ListsApi extends HttpApiGroup.make("lists")
  .add(
    HttpApiEndpoint.get("listOrders", "/v2/api/orders", {
      headers: ApiKeyHeader,
      query: {
        ...pageQuery,
        status: Schema.optionalKey(OrderStatus),
        kind: Schema.optionalKey(OrderKind)
      },
      success: OrderList,
      error: HandlerErrors
    }),
    HttpApiEndpoint.get("listTopups", "/v2/api/topups", {
      headers: ApiKeyHeader,
      query: {
        ...pageQuery,
        status: Schema.optionalKey(TopupStatus),
        method: Schema.optionalKey(TopupMethod)
      },
      success: TopupList,
      error: HandlerErrors
    })
  )
  .middleware(ApiKeyAuth) {}
