import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import * as Dto from "@resale/wire/Dtos.ts"
import { HandlerErrors } from "./Errors.ts"
import { OptionalStr } from "@resale/webkit/Fields.ts"
import { OperatorSession } from "./Middleware.ts"

/** The panel's lists are lenient: a paging number that is not digits is the default, never a 422. */
const paging = { offset: OptionalStr, limit: OptionalStr }

const AdminOrdersList = Schema.Struct({
  orders: Schema.Array(Dto.AdminOrder),
  total: Schema.Int,
  offset: Schema.Int,
  limit: Schema.Int
})

const AdminTopupsList = Schema.Struct({
  topups: Schema.Array(Schema.Struct({ ...Dto.AdminTopup.fields, receipt_type: Schema.NullOr(Schema.String) })),
  total: Schema.Int,
  offset: Schema.Int,
  limit: Schema.Int
})

/**
 * The operator panel's own lists (admin session cookie), outside the served document as before:
 *
 *   GET /v2/admin/orders/list    ?status=&kind=&offset=&limit=
 *   GET /v2/admin/topups/list    ?status=a,b&offset=&limit= (with each receipt's type and, for a
 *                                receipt in review, the credit it may repeat)
 *   GET /v2/admin/tickets/:ticket_id   the conversation (an id that is no ticket number is not found)
 */
export class OperatorListsApi extends HttpApiGroup.make("operatorLists")
  .add(
    HttpApiEndpoint.get("ordersList", "/v2/admin/orders/list", {
      query: { status: OptionalStr, kind: OptionalStr, ...paging },
      success: AdminOrdersList
    }),
    HttpApiEndpoint.get("topupsList", "/v2/admin/topups/list", {
      query: { status: OptionalStr, ...paging },
      success: AdminTopupsList
    }),
    HttpApiEndpoint.get("ticket", "/v2/admin/tickets/:ticket_id", {
      params: { ticket_id: Schema.String },
      success: Dto.TicketDetail,
      error: HandlerErrors
    })
  )
  .middleware(OperatorSession)
  .annotate(OpenApi.Exclude, true) {}

/** Method and path of each list, for the tests that walk the panel's routes. */
export const OPERATOR_LIST_ROUTES = Object.values(OperatorListsApi.endpoints).map((e) => ({
  method: e.method,
  path: e.path
}))
