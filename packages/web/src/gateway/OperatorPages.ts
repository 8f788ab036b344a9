import { TicketId, UserId as UserIdSchema } from "@resale/core/ids.ts"
import { reportJson } from "@resale/core/reports/ReportFormats.ts"
import { tashkentDay } from "@resale/core/reports/ReportPeriods.ts"
import { statusOut } from "@resale/wire"
import {
  adminHomeOut,
  adminOrdersList,
  adminTicketsList,
  adminTopupsList,
  peopleOf,
  ticketDetailOut
} from "@resale/wire/OperatorLists.ts"
import { paymentsList } from "@resale/wire/OperatorPayments.ts"
import { userDetail, usersList } from "@resale/wire/OperatorPeople.ts"
import { operatorReport } from "@resale/wire/OperatorReports.ts"
import { Clock, Effect, Option, Schema, type Types } from "effect"
import type { PageContext } from "../layout/PageContext.ts"
import { userIdsIn } from "../layout/People.ts"
import { adminHomePage, adminLoginPage } from "../pages/AdminHomePage.ts"
import { type AdminOrdersFilter, adminOrdersPage } from "../pages/AdminOrdersPage.ts"
import { adminPaymentsPage, PAYMENT_FILTERS, type PaymentsFilter } from "../pages/AdminPaymentsPage.ts"
import { adminReportsPage, type ReportQuery } from "../pages/AdminReportsPage.ts"
import { adminStatusPage } from "../pages/AdminStatusPage.ts"
import { adminTicketsPage } from "../pages/AdminTicketsPage.ts"
import { adminTopupsPage } from "../pages/AdminTopupsPage.ts"
import { adminUserPage, adminUsersPage } from "../pages/AdminUsersPage.ts"
import { ticketPage } from "../pages/TicketPage.ts"
import { codeLines, refusedLines } from "./ErrorText.ts"
import type { PageEnv } from "./PageRoutes.ts"
import { type PageResult, page, paging, signInFirst } from "./PageKit.ts"

const userIdOf = Schema.decodeUnknownOption(UserIdSchema)

/**
 * The page's context knowing who every `user_id` in `data` is, so an operator page shows name,
 * @username and Telegram id instead of a bare number (numbers nobody has stay numbers).
 */
const withPeople = (env: PageEnv, ...data: ReadonlyArray<unknown>) =>
  Effect.map(
    peopleOf(
      env.core.accounts,
      [...userIdsIn(data)].flatMap((id) => Option.toArray(userIdOf(id)))
    ),
    (found): PageContext => ({ ...env.ctx, people: new Map(found.map((p) => [p.user_id, p])) })
  )

/**
 * The operator panel's pages: each calls core through the same queries and mappers as the panel's
 * JSON routes (`@resale/wire` Operator*), so a page and its route show the same records.
 */
export const OPERATOR_PAGES: ReadonlyArray<
  readonly [RegExp, (env: PageEnv) => Effect.Effect<PageResult, Types.unhandled>]
> = [
  [
    /^\/v2\/admin\/login$/,
    (env) =>
      Effect.map(
        env.operator,
        (signedIn): PageResult => (signedIn ? { _tag: "Redirect", to: "/v2/admin" } : page(adminLoginPage(env.ctx)))
      )
  ],
  [
    /^\/v2\/admin\/status$/,
    (env) =>
      Effect.gen(function* () {
        if (!(yield* env.operator)) return signInFirst(env.ctx)
        return page(adminStatusPage(env.ctx, statusOut(yield* env.core.status.read)))
      })
  ],
  [
    /^\/v2\/admin\/?$/,
    (env) =>
      Effect.gen(function* () {
        if (!(yield* env.operator)) return signInFirst(env.ctx)
        const home = yield* adminHomeOut(env.core, env.ctx.sandbox)
        // The default filter (what waits for an operator) is always valid.
        const waiting = yield* paymentsList(env.core.payments, env.core.topups, { offset: 0, limit: 50 }).pipe(
          Effect.orDie
        )
        return page(adminHomePage(env.ctx, { home, unmatchedPayments: waiting.total }))
      })
  ],
  [
    /^\/v2\/admin\/topups$/,
    (env) =>
      Effect.gen(function* () {
        if (!(yield* env.operator)) return signInFirst(env.ctx)
        const { topups } = env.core
        const queue = yield* adminTopupsList(topups, { offset: 0, limit: 100, status: "review,pending" })
        const history = yield* adminTopupsList(topups, {
          offset: 0,
          limit: 50,
          status: "paid,cancelled,rejected,expired"
        })
        const ctx = yield* withPeople(env, queue, history)
        // Receipts waiting for a decision first, then the oldest transfer still pending.
        return page(
          adminTopupsPage(ctx, {
            queue: [...queue.topups].sort(
              (a, b) =>
                Number(b.status === "review") - Number(a.status === "review") ||
                a.created_at.localeCompare(b.created_at)
            ),
            history: history.topups
          })
        )
      })
  ],
  [
    /^\/v2\/admin\/payments$/,
    (env) =>
      Effect.gen(function* () {
        if (!(yield* env.operator)) return signInFirst(env.ctx)
        const { offset, limit } = paging(env.query, 50)
        const status = env.query.get("status") || "all"
        const filter: PaymentsFilter = {
          status: (PAYMENT_FILTERS as ReadonlyArray<string>).includes(status) ? status : "all",
          from: env.query.get("from") ?? "",
          to: env.query.get("to") ?? "",
          amount: env.query.get("amount") ?? "",
          offset,
          limit
        }
        return yield* paymentsList(env.core.payments, env.core.topups, filter).pipe(
          Effect.flatMap((list) =>
            Effect.map(withPeople(env, list), (ctx) =>
              page(adminPaymentsPage(ctx, { payments: list.payments, total: list.total, filter }))
            )
          ),
          Effect.catchTag("QueryInvalid", (e) =>
            Effect.succeed<PageResult>({ _tag: "Failed", status: 422, lines: refusedLines(e.refused) })
          )
        )
      })
  ],
  [
    /^\/v2\/admin\/orders$/,
    (env) =>
      Effect.gen(function* () {
        if (!(yield* env.operator)) return signInFirst(env.ctx)
        const { offset, limit } = paging(env.query, 50)
        const status = env.query.get("status") || null
        const kind = env.query.get("kind") || null
        const filter: AdminOrdersFilter = { status, kind, offset, limit }
        const gifts = yield* env.giftTitles
        const list = yield* adminOrdersList(env.core.orders, {
          offset,
          limit,
          status: status ?? undefined,
          kind: kind ?? undefined
        })
        const ctx = yield* withPeople(env, list)
        return page(adminOrdersPage(ctx, { orders: list.orders, total: list.total, filter, gifts }))
      })
  ],
  [
    /^\/v2\/admin\/users$/,
    (env) =>
      Effect.gen(function* () {
        if (!(yield* env.operator)) return signInFirst(env.ctx)
        const { offset, limit } = paging(env.query, 50)
        const search = (env.query.get("search") ?? "").slice(0, 64)
        const list = yield* usersList(env.core.accounts, env.core.balances, { offset, limit, search })
        return page(adminUsersPage(env.ctx, list, search))
      })
  ],
  [
    /^\/v2\/admin\/users\/(\d{1,15})$/,
    (env) =>
      Effect.gen(function* () {
        if (!(yield* env.operator)) return signInFirst(env.ctx)
        const notFound: PageResult = { _tag: "Failed", status: 404, lines: codeLines("user_not_found") }
        const userId = userIdOf(Number(env.match[1]))
        if (Option.isNone(userId)) return notFound
        return yield* userDetail({ ...env.core, webhooks: env.core.webhookOversight }, userId.value).pipe(
          Effect.map((detail) => page(adminUserPage(env.ctx, detail))),
          Effect.catchTag("UserNotFound", () => Effect.succeed(notFound))
        )
      })
  ],
  [
    /^\/v2\/admin\/reports$/,
    (env) =>
      Effect.gen(function* () {
        if (!(yield* env.operator)) return signInFirst(env.ctx)
        const query: ReportQuery = {
          period: env.query.get("period") || "day",
          from: env.query.get("from") ?? "",
          to: env.query.get("to") ?? "",
          tonRate: env.query.get("ton_rate") ?? ""
        }
        const today = tashkentDay(new Date(yield* Clock.currentTimeMillis))
        const asked = { period: query.period, from: query.from, to: query.to, ton_rate: query.tonRate }
        return yield* operatorReport(env.core.reports, asked, today).pipe(
          Effect.map(reportJson),
          Effect.map((data) =>
            page(adminReportsPage(env.ctx, { ...query, from: data.from, to: data.to }, data, today))
          ),
          // A refused request (bad dates or rate) is the same page with the form kept and the reason, not an error page.
          Effect.catchTag("QueryInvalid", () =>
            Effect.succeed(page(adminReportsPage(env.ctx, query, undefined, today)))
          )
        )
      })
  ],
  [
    /^\/v2\/admin\/tickets$/,
    (env) =>
      Effect.gen(function* () {
        if (!(yield* env.operator)) return signInFirst(env.ctx)
        const list = yield* adminTicketsList(env.core.tickets)
        return page(adminTicketsPage(yield* withPeople(env, list), list))
      })
  ],
  [
    /^\/v2\/admin\/tickets\/(\d{1,15})$/,
    (env) =>
      Effect.gen(function* () {
        if (!(yield* env.operator)) return signInFirst(env.ctx)
        const ticketId = Schema.decodeUnknownOption(TicketId)(Number(env.match[1]))
        const notFound: PageResult = { _tag: "Failed", status: 404, lines: codeLines("ticket_not_found") }
        if (Option.isNone(ticketId)) return notFound
        return yield* env.core.tickets.detail({ kind: "operator" }, ticketId.value).pipe(
          Effect.map(ticketDetailOut),
          Effect.flatMap((detail) =>
            Effect.map(withPeople(env, detail), (ctx) => page(ticketPage(ctx, { detail, viewer: "operator" })))
          ),
          Effect.catchTag("TicketNotFound", () => Effect.succeed(notFound))
        )
      })
  ]
]
