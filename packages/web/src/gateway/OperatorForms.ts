import { UserId } from "@resale/core/ids.ts"
import { TicketService } from "@resale/core/tickets/TicketService.ts"
import { Webhooks } from "@resale/core/webhooks/Webhooks.ts"
import { pathId, pathIdOf } from "@resale/webkit/PanelFields.ts"
import {
  adjustBalance,
  adjustInput,
  assignInput,
  assignPayment,
  type PanelInputInvalid,
  type PanelRecordNotFound
} from "@resale/webkit/PanelFormInput.ts"
import { TopupService } from "@resale/core/topups/TopupService.ts"
import { OrderIdPath, TicketIdPath, TopupIdPath } from "@resale/webkit/Fields.ts"
import {
  ApproveForm,
  LoginForm,
  MarkDoneForm,
  PricingForm,
  RefundForm,
  RejectForm,
  ReplyForm
} from "@resale/webkit/FormPayloads.ts"
import { idempotentWith } from "@resale/webkit/Idempotent.ts"
import {
  approveTopup,
  markOrderDone,
  note,
  recheckOrder,
  refundOrder,
  retryOrder,
  setPrices
} from "@resale/webkit/OperatorActions.ts"
import { Effect, Schema } from "effect"
import { signInOperator } from "@resale/webkit/OperatorSignIn.ts"
import type { MessageKey } from "../i18n/en.ts"
import { codeLines, refusedLines } from "./ErrorText.ts"
import { FormRefused, form, money, NoParams, ok } from "./Forms.ts"

/**
 * The operator panel's forms: each calls core as its JSON route does (the money-moving ones through
 * the same code, `@resale/webkit/OperatorActions.ts`, under the form's idempotency key) and sends
 * the browser back to the list with a one-shot message.
 */
// A browser is sent a page, not a header: a replay is not marked.
const idempotent = idempotentWith(undefined)

const TopupPath = Schema.Struct({ topup_id: TopupIdPath })
const OrderPath = Schema.Struct({ order_id: OrderIdPath })
const TicketPath = Schema.Struct({ ticket_id: TicketIdPath })

/** Back to the orders with `message` about the order of the path. */
const ordersWith = (message: MessageKey) => (m: RegExpExecArray) => ({
  next: "/v2/admin/orders",
  flash: ok(message, { id: m[1]! })
})

/** The panel's money forms refuse their input as their route does: a 422 list, or a record not found. */
const panelRefused = <A, E, R>(effect: Effect.Effect<A, E | PanelInputInvalid | PanelRecordNotFound, R>) =>
  Effect.catchTags(effect as Effect.Effect<A, PanelInputInvalid | PanelRecordNotFound, R>, {
    PanelInputInvalid: (e) => Effect.fail(new FormRefused({ lines: refusedLines(e.items) })),
    PanelRecordNotFound: (e) => Effect.fail(new FormRefused({ lines: codeLines(e.code) }))
  }) as Effect.Effect<A, Exclude<E, PanelInputInvalid | PanelRecordNotFound> | FormRefused, R>

const userIdOf = pathIdOf(UserId)

export const OPERATOR_FORMS = [
  form({
    pattern: /^\/v2\/admin\/payments\/(?<payment_id>\d+)\/assign$/,
    back: (m) => `/v2/admin/payments#pay-${m[1]}`,
    who: "operator",
    params: NoParams,
    fields: NoParams,
    before: (raw) => panelRefused(assignInput(raw)),
    run: ({ checked }) => panelRefused(assignPayment(checked)),
    success: (m, assigned) => ({
      next: "/v2/admin/payments",
      flash: ok("flash.paymentAssigned", { id: m[1]!, topup: String(assigned.topup_id ?? "") })
    })
  }),
  form({
    pattern: /^\/v2\/admin\/users\/(?<user_id>\d+)\/adjust$/,
    back: (m) => `/v2/admin/users/${m[1]}#adjust`,
    who: "operator",
    params: NoParams,
    fields: NoParams,
    before: (raw) => panelRefused(adjustInput(raw)),
    run: ({ checked }) => panelRefused(adjustBalance(checked)),
    success: (m, adjusted) => ({
      next: `/v2/admin/users/${m[1]}#user-history`,
      flash: ok("flash.balanceAdjusted", {
        amount: money(adjusted.amount_uzs),
        balance: money(adjusted.balance_uzs)
      })
    })
  }),
  form({
    pattern: /^\/v2\/admin\/users\/(?<user_id>\d+)\/webhooks\/(?<webhook_id>\d+)\/delete$/,
    back: (m) => `/v2/admin/users/${m[1]}#user-webhooks`,
    who: "operator",
    params: NoParams,
    fields: NoParams,
    run: ({ match }) =>
      Effect.gen(function* () {
        const userId = userIdOf(match.groups?.["user_id"])
        const endpointId = pathId(match.groups?.["webhook_id"])
        if (userId === undefined || endpointId === undefined)
          return yield* new FormRefused({ lines: codeLines("webhook_not_found") })
        yield* Webhooks.use((webhooks) => webhooks.remove(userId, endpointId))
      }),
    success: (m) => ({
      next: `/v2/admin/users/${m[1]}#user-webhooks`,
      flash: ok("flash.operatorWebhookDeleted", { id: m[2]! })
    })
  }),
  form({
    pattern: /^\/v2\/admin\/login$/,
    back: () => "/v2/admin/login",
    who: "anyone",
    params: NoParams,
    fields: LoginForm,
    run: ({ request, fields }) =>
      signInOperator(request, fields.token).pipe(
        Effect.catchTag("OperatorSignInRefused", (refused) =>
          Effect.fail(
            new FormRefused({ lines: codeLines(refused.reason === "blocked" ? "rate_limited" : "admin_token_invalid") })
          )
        )
      ),
    success: (_, cookie) => ({ next: "/v2/admin", cookie })
  }),
  form({
    pattern: /^\/v2\/admin\/pricing$/,
    back: () => "/v2/admin#pricing",
    who: "operator",
    params: NoParams,
    fields: PricingForm,
    run: ({ fields }) => setPrices(fields),
    success: () => ({ next: "/v2/admin", flash: ok("flash.pricesSaved") })
  }),
  form({
    pattern: /^\/v2\/admin\/topups\/(?<topup_id>\d+)\/approve$/,
    back: () => "/v2/admin/topups",
    who: "operator",
    params: TopupPath,
    fields: ApproveForm,
    run: ({ params, fields, idempotencyKey }) => approveTopup(idempotent, idempotencyKey, params, fields),
    success: (m) => ({ next: "/v2/admin/topups", flash: ok("flash.topupApproved", { id: m[1]! }) })
  }),
  form({
    pattern: /^\/v2\/admin\/topups\/(?<topup_id>\d+)\/reject$/,
    back: () => "/v2/admin/topups",
    who: "operator",
    params: TopupPath,
    fields: RejectForm,
    run: ({ params, fields }) => TopupService.use((topups) => topups.reject(params.topup_id, note(fields.admin_note))),
    success: (m) => ({ next: "/v2/admin/topups", flash: ok("flash.topupRejected", { id: m[1]! }) })
  }),
  form({
    pattern: /^\/v2\/admin\/orders\/(?<order_id>\d+)\/retry$/,
    back: () => "/v2/admin/orders",
    who: "operator",
    params: OrderPath,
    fields: NoParams,
    run: ({ params, idempotencyKey }) => retryOrder(idempotent, idempotencyKey, params),
    success: ordersWith("flash.orderRetried")
  }),
  form({
    pattern: /^\/v2\/admin\/orders\/(?<order_id>\d+)\/mark-done$/,
    back: () => "/v2/admin/orders",
    who: "operator",
    params: OrderPath,
    fields: MarkDoneForm,
    run: ({ params, fields, idempotencyKey }) => markOrderDone(idempotent, idempotencyKey, params, fields),
    success: ordersWith("flash.orderDone")
  }),
  form({
    pattern: /^\/v2\/admin\/orders\/(?<order_id>\d+)\/recheck$/,
    back: () => "/v2/admin/orders",
    who: "operator",
    params: OrderPath,
    fields: NoParams,
    run: ({ params, idempotencyKey }) => recheckOrder(idempotent, idempotencyKey, params),
    success: ordersWith("flash.orderRechecked")
  }),
  form({
    pattern: /^\/v2\/admin\/orders\/(?<order_id>\d+)\/refund$/,
    back: () => "/v2/admin/orders",
    who: "operator",
    params: OrderPath,
    fields: RefundForm,
    run: ({ params, fields, idempotencyKey }) => refundOrder(idempotent, idempotencyKey, params, fields),
    success: ordersWith("flash.orderRefunded")
  }),
  form({
    pattern: /^\/v2\/admin\/tickets\/(?<ticket_id>\d+)\/reply$/,
    back: (m) => `/v2/admin/tickets/${m[1]}#reply`,
    who: "operator",
    params: TicketPath,
    fields: ReplyForm,
    run: ({ params, fields }) => TicketService.use((tickets) => tickets.answer(params.ticket_id, fields.body)),
    success: (m) => ({ next: `/v2/admin/tickets/${m[1]}#conversation`, flash: ok("flash.replySent") })
  }),
  form({
    pattern: /^\/v2\/admin\/tickets\/(?<ticket_id>\d+)\/close$/,
    back: (m) => `/v2/admin/tickets/${m[1]}`,
    who: "operator",
    params: TicketPath,
    fields: NoParams,
    run: ({ params }) => TicketService.use((tickets) => tickets.close(params.ticket_id)),
    success: (m) => ({ next: `/v2/admin/tickets/${m[1]}`, flash: ok("flash.ticketClosed", { id: m[1]! }) })
  }),
  form({
    pattern: /^\/v2\/admin\/tickets\/(?<ticket_id>\d+)\/reopen$/,
    back: (m) => `/v2/admin/tickets/${m[1]}`,
    who: "operator",
    params: TicketPath,
    fields: NoParams,
    run: ({ params }) => TicketService.use((tickets) => tickets.reopen(params.ticket_id)),
    success: (m) => ({ next: `/v2/admin/tickets/${m[1]}`, flash: ok("flash.ticketReopened", { id: m[1]! }) })
  })
]
