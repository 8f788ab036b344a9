import type { UserId } from "@resale/core"
import type { Accounts } from "@resale/core/accounts/Accounts.ts"
import type { Balances } from "@resale/core/ledger/Balances.ts"
import type { TopupService } from "@resale/core/topups/TopupService.ts"
import type { OrderService } from "@resale/core/orders/OrderService.ts"
import type { PricingService } from "@resale/core/pricing/PricingService.ts"
import type { OperatorStatus } from "@resale/core/status/OperatorStatus.ts"
import { type GiftCatalog, giftsOut } from "@resale/webkit/GiftCatalog.ts"
import { clampPage } from "@resale/core/Page.ts"
import type { TicketService } from "@resale/core/tickets/TicketService.ts"
import { TicketId, UserId as UserIdSchema } from "@resale/core/ids.ts"
import { messageOut, orderOut, pricingOut, statusOut, ticketOut, topupOut, userOut } from "@resale/wire"
import { Clock, Effect, Option, Schema, type Types } from "effect"
import { tashkentDay } from "@resale/core/reports/ReportPeriods.ts"
import { reportJson } from "@resale/core/reports/ReportFormats.ts"
import type { Reports } from "@resale/core/reports/Reports.ts"
import type { Payments } from "@resale/core/payments/Payments.ts"
import type { WebhookOversight } from "@resale/core/webhooks/WebhookOversight.ts"
import { operatorReport } from "@resale/wire/OperatorReports.ts"
import { userDetail, usersList } from "@resale/wire/OperatorPeople.ts"
import { paymentsList } from "@resale/wire/OperatorPayments.ts"
import type * as Dto from "@resale/wire/Dtos.ts"
import { historyPageOut } from "@resale/wire/Dtos.ts"
import {
  adminHomeOut,
  adminOrdersList,
  adminTicketsList,
  adminTopupsList,
  peopleOf,
  ticketDetailOut
} from "@resale/wire/OperatorLists.ts"
import type { Html } from "../Html.ts"
import type { PageContext } from "../layout/PageContext.ts"
import { userIdsIn } from "../layout/People.ts"
import { type AdminOrdersFilter, adminOrdersPage } from "../pages/AdminOrdersPage.ts"
import { adminPaymentsPage, PAYMENT_FILTERS, type PaymentsFilter } from "../pages/AdminPaymentsPage.ts"
import { adminHomePage, adminLoginPage } from "../pages/AdminHomePage.ts"
import { adminStatusPage } from "../pages/AdminStatusPage.ts"
import { adminReportsPage, type ReportQuery } from "../pages/AdminReportsPage.ts"
import { adminTicketsPage } from "../pages/AdminTicketsPage.ts"
import { adminTopupsPage } from "../pages/AdminTopupsPage.ts"
import { apiPage, confirmRotatePage } from "../pages/ApiPage.ts"
import type { WebhookEndpointView } from "@resale/wire/Dtos.ts"
import { dashboardPage } from "../pages/DashboardPage.ts"
import { giftsPage } from "../pages/GiftsPage.ts"
import { historyPage } from "../pages/HistoryPage.ts"
import { adminUserPage, adminUsersPage } from "../pages/AdminUsersPage.ts"
import { homePage } from "../pages/HomePage.ts"
import { type SandboxInboxView, sandboxPage } from "../pages/SandboxPage.ts"
import type { GiftTitles } from "../pages/OrderViews.ts"
import { ordersPage } from "../pages/OrdersPage.ts"
import { ticketPage } from "../pages/TicketPage.ts"
import { ticketsPage } from "../pages/TicketsPage.ts"
import { tierConfirmPage } from "../pages/TierConfirmPage.ts"
import { codeLines, errorLines, refusedLines } from "./ErrorText.ts"
import type { InnerAnswer } from "./InnerCall.ts"
import type { Flash, FlashLine } from "./WebCookies.ts"

/**
 * The HTML pages: each one fetches the JSON its route answers any API client (through the same
 * router and checks) and draws it. A 401 sends the browser to sign in; other errors are a page
 * in words.
 */
export type PageResult =
  | { readonly _tag: "Page"; readonly html: Html }
  | { readonly _tag: "Redirect"; readonly to: string; readonly flash?: Flash }
  | { readonly _tag: "Failed"; readonly status: number; readonly lines: ReadonlyArray<FlashLine> }

export interface PageEnv {
  readonly ctx: PageContext
  readonly match: RegExpExecArray
  readonly query: URLSearchParams
  /** The shopper signed in on this browser, if any. */
  readonly user: Effect.Effect<Option.Option<UserId>>
  /** Whether an operator is signed in on this browser. */
  readonly operator: Effect.Effect<boolean>
  /** Core's use cases the pages call directly. */
  readonly core: {
    readonly accounts: Accounts["Service"]
    readonly topups: TopupService["Service"]
    readonly balances: Balances["Service"]
    readonly orders: OrderService["Service"]
    readonly tickets: TicketService["Service"]
    readonly pricing: PricingService["Service"]
    readonly gifts: GiftCatalog["Service"]
    readonly status: OperatorStatus["Service"]
    readonly reports: Reports["Service"]
    readonly webhooks: WebhookOversight["Service"]
    readonly payments: Payments["Service"]
  }
  /** GET of one of our routes on behalf of this browser, as JSON. */
  readonly get: (url: string) => Effect.Effect<InnerAnswer, Types.unhandled>
  readonly publicUrl: string
  /** The sign-in widget's callback URL, bound to this browser. */
  readonly authUrl: string
  readonly paymentCard: string | null
  readonly topupLimits: { readonly min: number; readonly max: number }
  readonly giftTitles: Effect.Effect<GiftTitles>
  /** The API reference drawn from the OpenAPI document. */
  readonly reference: Html
}

const page = (html: Html): PageResult => ({ _tag: "Page", html })

/** Not signed in: to the sign-in page of the area, saying why. */
const signInFirst = (ctx: PageContext): PageResult => {
  const admin = ctx.area === "admin"
  return {
    _tag: "Redirect",
    to: admin ? "/v2/admin/login" : "/v2/",
    flash: { kind: "error", lines: [{ key: admin ? "error.adminSignIn" : "error.signIn" }] }
  }
}

/** A failed inner answer as the browser should get it. */
const failure = (ctx: PageContext, answer: InnerAnswer): PageResult => {
  if (answer.status === 401) return signInFirst(ctx)
  return { _tag: "Failed", status: answer.status, lines: errorLines(answer.status, answer.text) }
}

/** Runs `draw` on the JSON answers when they all succeeded, else the first failure. */
const withJson = <const T extends ReadonlyArray<unknown>>(
  env: PageEnv,
  answers: ReadonlyArray<InnerAnswer>,
  draw: (...json: T) => Html
): PageResult => {
  const failed = answers.find((a) => a.status < 200 || a.status >= 300)
  return failed ? failure(env.ctx, failed) : page(draw(...(answers.map((a) => a.json) as unknown as T)))
}

const load = <const T extends ReadonlyArray<unknown>>(
  env: PageEnv,
  urls: ReadonlyArray<string>,
  draw: (...json: T) => Html
) => Effect.map(Effect.forEach(urls, env.get), (answers) => withJson(env, answers, draw))

const paging = (query: URLSearchParams, limitDefault: number) => {
  const int = (name: string, fallback: number, max: number) => {
    const raw = query.get(name)
    return raw !== null && /^\d{1,9}$/.test(raw) ? Math.min(Number(raw), max) : fallback
  }
  return { offset: int("offset", 0, 1e9), limit: Math.max(1, int("limit", limitDefault, 100)) }
}

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
const userIdOf = Schema.decodeUnknownOption(UserIdSchema)

type Loader = (env: PageEnv) => Effect.Effect<PageResult, Types.unhandled>

export const PAGES: ReadonlyArray<readonly [RegExp, Loader]> = [
  [
    /^\/v2\/?$/,
    (env) =>
      load(env, ["/v2/", "/v2/api/pricing"], (home: typeof Dto.Home.Type, pricing: typeof Dto.Pricing.Type) =>
        homePage(env.ctx, { home, pricing, authUrl: env.authUrl })
      )
  ],
  [
    /^\/v2\/dashboard$/,
    (env) =>
      Effect.gen(function* () {
        const userId = yield* env.user
        if (Option.isNone(userId)) return signInFirst(env.ctx)
        const { accounts, balances, pricing, topups, orders } = env.core
        const recent = { offset: 0, limit: 10 }
        const dashboard = {
          // A signed-in session names an existing account (as the JSON route assumes too).
          user: userOut(yield* accounts.find(userId.value).pipe(Effect.orDie)),
          balance_uzs: yield* balances.balance(userId.value),
          pricing: pricingOut(yield* pricing.get, env.ctx.sandbox),
          topups: (yield* topups.listOwn(userId.value, recent)).items.map(topupOut),
          orders: (yield* orders.listOwn(userId.value, recent)).items.map(orderOut),
          sandbox: env.ctx.sandbox
        }
        const gifts = yield* env.giftTitles
        return page(dashboardPage(env.ctx, { dashboard, card: env.paymentCard, limits: env.topupLimits, gifts }))
      })
  ],
  [
    /^\/v2\/orders$/,
    (env) =>
      Effect.gen(function* () {
        const userId = yield* env.user
        if (Option.isNone(userId)) return signInFirst(env.ctx)
        const request = clampPage(paging(env.query, 20))
        const found = yield* env.core.orders.listOwn(userId.value, request)
        const list = { orders: found.items.map(orderOut), total: found.total, ...request }
        return page(ordersPage(env.ctx, { page: list, gifts: yield* env.giftTitles }))
      })
  ],
  [
    /^\/v2\/history$/,
    // Straight from core's ledger: the signed-in shopper's entries, newest first.
    (env) =>
      Effect.gen(function* () {
        const userId = yield* env.user
        if (Option.isNone(userId)) return signInFirst(env.ctx)
        const request = clampPage(paging(env.query, 20))
        const found = yield* env.core.balances.entries(userId.value, request)
        return page(historyPage(env.ctx, historyPageOut(found, request)))
      })
  ],
  // Sandbox mode only: in production the inbox route does not exist and the page answers "not found".
  [
    /^\/v2\/sandbox$/,
    (env) => load(env, ["/v2/sandbox/push/inbox"], (inbox: SandboxInboxView) => sandboxPage(env.ctx, inbox))
  ],
  [
    /^\/v2\/gifts$/,
    (env) =>
      Effect.gen(function* () {
        const userId = yield* env.user
        if (Option.isNone(userId)) return signInFirst(env.ctx)
        const gifts = giftsOut(yield* env.core.gifts.list, yield* env.core.pricing.get, env.ctx.sandbox)
        return page(giftsPage(env.ctx, gifts))
      })
  ],
  [
    /^\/v2\/tickets$/,
    (env) =>
      Effect.gen(function* () {
        const userId = yield* env.user
        if (Option.isNone(userId)) return signInFirst(env.ctx)
        const found = yield* env.core.tickets.listOwn(userId.value, { offset: 0, limit: 100 })
        return page(ticketsPage(env.ctx, { tickets: found.items.map(ticketOut), total: found.total }))
      })
  ],
  [
    /^\/v2\/tickets\/(\d{1,15})$/,
    (env) =>
      Effect.gen(function* () {
        const userId = yield* env.user
        if (Option.isNone(userId)) return signInFirst(env.ctx)
        const ticketId = Schema.decodeUnknownOption(TicketId)(Number(env.match[1]))
        const notFound: PageResult = { _tag: "Failed", status: 404, lines: codeLines("ticket_not_found") }
        if (Option.isNone(ticketId)) return notFound
        return yield* env.core.tickets.detail({ kind: "user", userId: userId.value }, ticketId.value).pipe(
          Effect.map(({ ticket, messages }) =>
            page(
              ticketPage(env.ctx, {
                detail: { ticket: ticketOut(ticket), messages: messages.map(messageOut) },
                viewer: "user"
              })
            )
          ),
          // Someone else's ticket is not found either, as the JSON route answers.
          Effect.catchTag("TicketNotFound", () => Effect.succeed(notFound))
        )
      })
  ],
  [
    /^\/v2\/api-docs$/,
    (env) =>
      load(
        env,
        ["/v2/api-docs", ...(env.ctx.signedIn ? ["/v2/dashboard", "/v2/api-key/webhooks"] : [])],
        (
          docs: typeof Dto.ApiDocs.Type,
          dashboard?: typeof Dto.Dashboard.Type,
          hooks?: { readonly webhooks: ReadonlyArray<WebhookEndpointView> }
        ) =>
          apiPage(env.ctx, {
            docs,
            user: dashboard?.user ?? null,
            baseUrl: env.publicUrl,
            reference: env.reference,
            webhooks: hooks?.webhooks ?? []
          })
      )
  ],
  [
    /^\/v2\/api-key\/confirm$/,
    (env) =>
      load(env, ["/v2/dashboard"], (dashboard: typeof Dto.Dashboard.Type) => confirmRotatePage(env.ctx, dashboard.user))
  ],
  [
    /^\/v2\/api-docs\/getinfo-upgrade\/confirm$/,
    (env) =>
      Effect.map(Effect.forEach(["/v2/balance", "/v2/api-docs"], env.get), (answers): PageResult => {
        const failed = answers.find((a) => a.status !== 200)
        if (failed) return failure(env.ctx, failed)
        const [balance, docs] = [
          answers[0]!.json as { balance_uzs: number },
          answers[1]!.json as typeof Dto.ApiDocs.Type
        ]
        const current = docs.current_tier ?? 0
        const tier = docs.tiers.find((terms) => String(terms.tier) === env.query.get("tier"))
        // Nothing to ask about: back to the tiers with the reason, as a refused form would be.
        const refused =
          tier === undefined
            ? ("error.tierUnknown" as const)
            : tier.tier <= current
              ? ("error.tierNotUpgrade" as const)
              : undefined
        if (refused !== undefined || tier === undefined) {
          return {
            _tag: "Redirect",
            to: "/v2/api-docs#tiers",
            flash: { kind: "error", lines: [{ key: refused ?? "error.tierUnknown" }], form: "tiers" }
          }
        }
        return page(tierConfirmPage(env.ctx, { tier, balance: balance.balance_uzs }))
      })
  ],
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
        const userId = Schema.decodeUnknownOption(UserIdSchema)(Number(env.match[1]))
        if (Option.isNone(userId)) return notFound
        return yield* userDetail(env.core, userId.value).pipe(
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

export const findPage = (path: string): readonly [RegExpExecArray, Loader] | undefined => {
  for (const [pattern, loader] of PAGES) {
    const match = pattern.exec(path)
    if (match) return [match, loader]
  }
  return undefined
}
