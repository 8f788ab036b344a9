import { Accounts } from "@resale/core/accounts/Accounts.ts"
import { UserId } from "@resale/core/ids.ts"
import { Balances } from "@resale/core/ledger/Balances.ts"
import { OrderService } from "@resale/core/orders/OrderService.ts"
import { TicketService } from "@resale/core/tickets/TicketService.ts"
import { TopupService } from "@resale/core/topups/TopupService.ts"
import { type WebhookOverview, WebhookOversight } from "@resale/core/webhooks/WebhookOversight.ts"
import { Effect, Layer, Option } from "effect"
import { HttpRouter, HttpServerRequest } from "effect/http"
import { WebSessions } from "@resale/webkit/WebSessions.ts"
import { adminOrderOut, ticketOut, topupOut, userOut } from "../handlers/Wire.ts"
import { HttpConfig } from "@resale/webkit/HttpConfig.ts"
import {
  detail,
  errorResponse,
  formFields,
  intField,
  json,
  operatorOnly as operatorOnlyWith,
  pathId,
  pathIdOf,
  queryInt,
  strField,
  validationFailed,
  type ValidationItem
} from "./RouteKit.ts"

/**
 * Who is who, for operators: find a shopper by @username, name or user number, see one
 * shopper whole (balance, ledger history, top-ups, orders, tickets, API key state, webhooks),
 * correct the balance with a reason the shopper is shown, through the core's own adjustment use
 * case, and remove one of the shopper's webhook endpoints.
 *
 *   GET  /v2/admin/users/list?search=&offset=&limit=   -> { users: [UserOut + balance_uzs], total }
 *   GET  /v2/admin/users/brief?ids=1,2,3               -> { users: [UserOut] } (who the numbers on a list are)
 *   GET  /v2/admin/users/:user_id                      -> { user, balance_uzs, history, topups, orders, tickets, webhooks }
 *   POST /v2/admin/users/:user_id/adjust               form: amount_uzs (signed), reason; Idempotency-Key required
 *   POST /v2/admin/users/:user_id/webhooks/:webhook_id/delete  -> { id, deleted: true }
 */
export const PEOPLE_ROUTES = [
  { method: "GET", path: "/v2/admin/users/list" },
  { method: "GET", path: "/v2/admin/users/brief" },
  { method: "GET", path: "/v2/admin/users/:user_id" },
  { method: "POST", path: "/v2/admin/users/:user_id/adjust" },
  { method: "POST", path: "/v2/admin/users/:user_id/webhooks/:webhook_id/delete" }
] as const

const pathUser = pathIdOf(UserId)

/** An endpoint for the operator: no secret; its newest delivery's state, or null before any event. */
const webhookOut = ({ endpoint: e, lastDelivery: d }: WebhookOverview) => ({
  id: e.id,
  url: e.url,
  events: [...e.events],
  created_at: e.createdAt.toISOString(),
  last_delivery:
    d === null
      ? null
      : {
          event: d.eventType,
          status: d.status,
          attempts: d.attempts,
          last_status_code: d.lastStatusCode,
          last_error: d.lastError,
          created_at: d.createdAt.toISOString(),
          delivered_at: d.deliveredAt?.toISOString() ?? null
        }
})

export const PeopleRoutes = Layer.effectDiscard(
  Effect.gen(function* () {
    const router = yield* HttpRouter.HttpRouter
    const sessions = yield* WebSessions
    const config = yield* HttpConfig
    const accounts = yield* Accounts
    const balances = yield* Balances
    const topups = yield* TopupService
    const orders = yield* OrderService
    const tickets = yield* TicketService
    const webhooks = yield* WebhookOversight

    const operatorOnly = operatorOnlyWith(sessions, config.publicUrl)

    const list = Effect.gen(function* () {
      const query = new URL((yield* HttpServerRequest.HttpServerRequest).url, "http://localhost").searchParams
      // "@durov", "durov" or a name part, as the store's search matches; a number is also tried as a user number.
      const search = (query.get("search") ?? "").trim().replace(/^@/, "").slice(0, 64)
      const offset = queryInt(query, "offset", 0)
      const limit = Math.max(1, queryInt(query, "limit", 50, 100))
      // A number is also tried as a user number and a Telegram id (the core puts those first).
      const page = yield* accounts.list({ offset, limit, ...(search === "" ? {} : { search }) })
      const users = yield* Effect.forEach(page.items, (u) =>
        Effect.map(balances.balance(u.id), (balance) => ({ ...userOut(u), balance_uzs: balance }))
      )
      return json({ users, total: page.total, offset, limit })
    })

    // Who the user numbers on an operator list are: name, @username, Telegram id (unknown numbers are left out).
    const brief = Effect.gen(function* () {
      const query = new URL((yield* HttpServerRequest.HttpServerRequest).url, "http://localhost").searchParams
      const ids = [
        ...new Set(
          (query.get("ids") ?? "")
            .split(",")
            .map((raw) => pathUser(raw.trim()))
            .filter((id) => id !== undefined)
        )
      ].slice(0, 200)
      const found = yield* Effect.forEach(ids, (id) => Effect.option(accounts.find(id)), { concurrency: 4 })
      return json({ users: found.flatMap((u) => Option.toArray(u)).map(userOut) })
    })

    const one = Effect.gen(function* () {
      const userId = pathUser((yield* HttpRouter.params)["user_id"])
      if (userId === undefined) return detail(404, "User not found", "user_not_found")
      const found = yield* accounts.find(userId).pipe(Effect.option)
      if (Option.isNone(found)) return detail(404, "User not found", "user_not_found")
      const recent = { offset: 0, limit: 20 }
      return json({
        user: userOut(found.value),
        balance_uzs: yield* balances.balance(userId),
        history: (yield* balances.entries(userId, recent)).items.map((e) => ({
          entry_id: e.id,
          amount_uzs: e.amount,
          cause: e.cause,
          cause_id: e.causeId,
          note: e.note,
          balance_after_uzs: e.balanceAfter,
          created_at: e.createdAt.toISOString()
        })),
        topups: (yield* topups.list({ ...recent, userId })).items.map(topupOut),
        orders: (yield* orders.list({ ...recent, userId })).items.map(adminOrderOut),
        tickets: (yield* tickets.list({ ...recent, userId })).items.map(ticketOut),
        webhooks: (yield* webhooks.ofUser(userId)).map(webhookOut)
      })
    })

    // The shopper's endpoint, removed by an operator; another user's endpoint is 404 as for its owner.
    const deleteWebhook = Effect.gen(function* () {
      const params = yield* HttpRouter.params
      const userId = pathUser(params["user_id"])
      const endpointId = pathId(params["webhook_id"])
      if (userId === undefined || endpointId === undefined)
        return yield* operatorOnly(Effect.succeed(detail(404, "Webhook endpoint not found", "webhook_not_found")))
      return yield* operatorOnly(
        webhooks
          .remove(userId, endpointId)
          .pipe(Effect.as(json({ id: endpointId, deleted: true })), Effect.catch(errorResponse))
      )
    })

    const adjust = Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const userId = pathUser((yield* HttpRouter.params)["user_id"])
      const fields = yield* formFields(request)
      const errors: Array<ValidationItem> = []
      const amount = intField(["body", "amount_uzs"], fields["amount_uzs"]?.replace(/^\+/, ""), errors)
      const reason = strField(["body", "reason"], fields["reason"], errors).trim()
      if (errors.length === 0 && amount === 0)
        errors.push({
          type: "value_error",
          loc: ["body", "amount_uzs"],
          msg: "Value error, must not be zero",
          input: 0
        })
      if (errors.length === 0 && (reason === "" || reason.length > 500))
        errors.push({
          type: "value_error",
          loc: ["body", "reason"],
          msg: "Value error, 1 to 500 characters",
          input: reason
        })
      // The form's one-time key makes the correction idempotent: a double submit moves money once.
      const key = request.headers["idempotency-key"]
      if (errors.length === 0 && (key === undefined || !/^[A-Za-z0-9-]{8,100}$/.test(key)))
        errors.push({ type: "missing", loc: ["header", "idempotency-key"], msg: "Field required", input: null })
      if (userId === undefined) return detail(404, "User not found", "user_not_found")
      if (errors.length > 0) return validationFailed(errors)
      return yield* operatorOnly(
        balances.adjust({ userId, amount, reason, key: `web:${key}` }).pipe(
          Effect.map(({ entry }) =>
            json({ user_id: userId, entry_id: entry.id, amount_uzs: entry.amount, balance_uzs: entry.balanceAfter })
          ),
          Effect.catchTag("AdjustmentInvalid", (e) =>
            Effect.succeed(
              validationFailed([
                { type: "value_error", loc: ["body", "amount_uzs"], msg: `Value error, ${e.message}`, input: amount }
              ])
            )
          ),
          Effect.catch(errorResponse)
        )
      )
    })

    yield* router.add("GET", "/v2/admin/users/list", operatorOnly(list))
    yield* router.add("GET", "/v2/admin/users/brief", operatorOnly(brief))
    yield* router.add("GET", "/v2/admin/users/:user_id", operatorOnly(one))
    yield* router.add("POST", "/v2/admin/users/:user_id/adjust", adjust)
    yield* router.add("POST", "/v2/admin/users/:user_id/webhooks/:webhook_id/delete", deleteWebhook)
  })
)
