import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import * as Dto from "@resale/wire/Dtos.ts"
import { HandlerErrors } from "./Errors.ts"
import { OptionalStr } from "@resale/webkit/Fields.ts"
import { OperatorSession } from "./Middleware.ts"

const NullableStr = Schema.NullOr(Schema.String)
const NullableInt = Schema.NullOr(Schema.Int)

const UsersList = Schema.Struct({
  users: Schema.Array(Schema.Struct({ ...Dto.UserOut.fields, balance_uzs: Schema.Int })),
  total: Schema.Int,
  offset: Schema.Int,
  limit: Schema.Int
})

const HistoryEntry = Schema.Struct({
  entry_id: Schema.Int,
  amount_uzs: Schema.Int,
  cause: Schema.Literals(["topup", "order", "refund", "tier", "adjust"]),
  cause_id: Schema.String,
  note: NullableStr,
  balance_after_uzs: Schema.Int,
  created_at: Schema.String
})

const UserWebhook = Schema.Struct({
  id: Schema.Int,
  url: Schema.String,
  events: Schema.Array(Schema.String),
  created_at: Schema.String,
  last_delivery: Schema.NullOr(
    Schema.Struct({
      event: Schema.String,
      status: Schema.String,
      attempts: Schema.Int,
      last_status_code: NullableInt,
      last_error: NullableStr,
      created_at: Schema.String,
      delivered_at: NullableStr
    })
  )
})

const UserDetail = Schema.Struct({
  user: Dto.UserOut,
  balance_uzs: Schema.Int,
  history: Schema.Array(HistoryEntry),
  topups: Schema.Array(Dto.Topup),
  orders: Schema.Array(Dto.AdminOrder),
  tickets: Schema.Array(Dto.Ticket),
  webhooks: Schema.Array(UserWebhook)
})

/** Path numbers are text here: one that is no record number is a 404 after sign-in, as before. */
const userPath = { user_id: Schema.String }

/**
 * Who is who, for operators (admin session cookie), outside the served document:
 *
 *   GET  /v2/admin/users/list?search=&offset=&limit=   -> { users: [UserOut + balance_uzs], total, offset, limit }
 *   GET  /v2/admin/users/brief?ids=1,2,3               -> { users: [UserOut] } (who the numbers on a list are)
 *   GET  /v2/admin/users/:user_id                      -> { user, balance_uzs, history, topups, orders, tickets, webhooks }
 *   POST /v2/admin/users/:user_id/webhooks/:webhook_id/delete  -> { id, deleted: true }
 */
export class PeopleApi extends HttpApiGroup.make("people")
  .add(
    HttpApiEndpoint.get("usersList", "/v2/admin/users/list", {
      query: { search: OptionalStr, offset: OptionalStr, limit: OptionalStr },
      success: UsersList
    }),
    HttpApiEndpoint.get("usersBrief", "/v2/admin/users/brief", {
      query: { ids: OptionalStr },
      success: Schema.Struct({ users: Schema.Array(Dto.UserOut) })
    }),
    HttpApiEndpoint.get("user", "/v2/admin/users/:user_id", {
      params: userPath,
      success: UserDetail,
      error: HandlerErrors
    }),
    HttpApiEndpoint.post("deleteWebhook", "/v2/admin/users/:user_id/webhooks/:webhook_id/delete", {
      params: { ...userPath, webhook_id: Schema.String },
      success: Schema.Struct({ id: Schema.Int, deleted: Schema.Boolean }),
      error: HandlerErrors
    })
  )
  .middleware(OperatorSession)
  .annotate(OpenApi.Exclude, true) {}
