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
import type { Webhooks } from "@resale/core/webhooks/Webhooks.ts"
import type { SandboxPushInbox } from "@resale/push/SandboxPushInbox.ts"
import { TicketId } from "@resale/core/ids.ts"
import { messageOut, orderOut, pricingOut, statusOut, ticketOut, topupOut, userOut } from "@resale/wire"
import { Clock, Effect, Option, Schema, type Types } from "effect"
import { tashkentDay } from "@resale/core/reports/ReportPeriods.ts"
import type * as Dto from "@resale/wire/Dtos.ts"
import { apiDocsOut, historyPageOut, homeOut, webhookEndpointOut } from "@resale/wire/Dtos.ts"
import type { Html } from "../Html.ts"
import type { PageContext } from "../layout/PageContext.ts"
import { type Person, userIdsIn } from "../layout/People.ts"
import { type AdminOrdersFilter, adminOrdersPage } from "../pages/AdminOrdersPage.ts"
import {
  type AdminPayment,
  adminPaymentsPage,
  PAYMENT_FILTERS,
  type PaymentsFilter
} from "../pages/AdminPaymentsPage.ts"
import { adminHomePage, adminLoginPage } from "../pages/AdminHomePage.ts"
import { adminStatusPage } from "../pages/AdminStatusPage.ts"
import { adminReportsPage, type ReportData, type ReportQuery } from "../pages/AdminReportsPage.ts"
import { adminTicketsPage } from "../pages/AdminTicketsPage.ts"
import { type AdminTopup, adminTopupsPage } from "../pages/AdminTopupsPage.ts"
import { apiPage, confirmRotatePage } from "../pages/ApiPage.ts"
import { dashboardPage } from "../pages/DashboardPage.ts"
import { giftsPage } from "../pages/GiftsPage.ts"
import { historyPage } from "../pages/HistoryPage.ts"
import { type AdminUserDetail, type AdminUsersList, adminUserPage, adminUsersPage } from "../pages/AdminUsersPage.ts"
import { homePage } from "../pages/HomePage.ts"
import { sandboxPage } from "../pages/SandboxPage.ts"
import type { GiftTitles } from "../pages/OrderViews.ts"
import { ordersPage } from "../pages/OrdersPage.ts"
import { ticketPage } from "../pages/TicketPage.ts"
import { ticketsPage } from "../pages/TicketsPage.ts"
import { tierConfirmPage } from "../pages/TierConfirmPage.ts"
import { codeLines, errorLines } from "./ErrorText.ts"
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
    readonly webhooks: Webhooks["Service"]
    /** The sandbox's push receiver (sandbox mode only; see `/v2/sandbox`). */
    readonly sandboxInbox: SandboxPushInbox["Service"]
  }
  /** GET of one of our routes on behalf of this browser, as JSON. */
  readonly get: (url: string) => Effect.Effect<InnerAnswer, Types.unhandled>
  readonly publicUrl: string
  /** The sign-in widget's bot (`TELEGRAM_BOT_USERNAME`), if any. */
  readonly botUsername: string | null
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
 * `load` for operator lists: also asks who every `user_id` in the answers is, so the page can show
 * name, @username and Telegram id instead of a bare number (a failed look-up leaves the numbers).
 */
const loadWithPeople = <const T extends ReadonlyArray<unknown>>(
  env: PageEnv,
  urls: ReadonlyArray<string>,
  draw: (ctx: PageContext, ...json: T) => Html
) =>
  Effect.gen(function* () {
    const answers = yield* Effect.forEach(urls, env.get)
    const ids = [...userIdsIn(answers.map((a) => a.json))]
    const brief =
      ids.length === 0 ? undefined : yield* env.get(`/v2/admin/users/brief?ids=${ids.slice(0, 200).join(",")}`)
    const found = brief?.status === 200 ? (brief.json as { users: ReadonlyArray<Person> }).users : []
    const ctx = { ...env.ctx, people: new Map(found.map((p) => [p.user_id, p])) }
    return withJson(env, answers, (...json: T) => draw(ctx, ...json))
  })

/** The signed-in shopper's account; a signed-in session names an existing one (as the JSON routes assume). */
const signedInUser = (env: PageEnv) =>
  Effect.flatMap(env.user, (userId) =>
    Option.isNone(userId) ? Effect.succeedNone : Effect.asSome(Effect.orDie(env.core.accounts.find(userId.value)))
  )

type Loader = (env: PageEnv) => Effect.Effect<PageResult, Types.unhandled>

export const PAGES: ReadonlyArray<readonly [RegExp, Loader]> = [
  [
    /^\/v2\/?$/,
    (env) =>
      Effect.gen(function* () {
        const site = { sandbox: env.ctx.sandbox, botUsername: env.botUsername, publicUrl: env.publicUrl }
        const home = homeOut(site, Option.isSome(yield* env.user))
        const pricing = pricingOut(yield* env.core.pricing.get, env.ctx.sandbox)
        return page(homePage(env.ctx, { home, pricing, authUrl: env.authUrl }))
      })
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
  // Sandbox mode only: in production the page answers "not found", as its inbox routes do.
  [
    /^\/v2\/sandbox$/,
    (env) =>
      Effect.gen(function* () {
        if (!env.ctx.sandbox) return { _tag: "Failed", status: 404, lines: codeLines("not_found") } satisfies PageResult
        const userId = yield* env.user
        if (Option.isNone(userId)) return signInFirst(env.ctx)
        return page(sandboxPage(env.ctx, yield* env.core.sandboxInbox.received(userId.value)))
      })
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
      Effect.gen(function* () {
        const user = yield* signedInUser(env)
        const webhooks = Option.isSome(user) ? yield* env.core.webhooks.list(user.value.id) : []
        return page(
          apiPage(env.ctx, {
            docs: apiDocsOut(Option.isSome(user) ? user.value.tier : null),
            user: Option.isSome(user) ? userOut(user.value) : null,
            baseUrl: env.publicUrl,
            reference: env.reference,
            webhooks: webhooks.map(webhookEndpointOut)
          })
        )
      })
  ],
  [
    /^\/v2\/api-key\/confirm$/,
    (env) =>
      Effect.map(signedInUser(env), (user) =>
        Option.isSome(user) ? page(confirmRotatePage(env.ctx, userOut(user.value))) : signInFirst(env.ctx)
      )
  ],
  [
    /^\/v2\/api-docs\/getinfo-upgrade\/confirm$/,
    (env) =>
      Effect.gen(function* () {
        const user = yield* signedInUser(env)
        if (Option.isNone(user)) return signInFirst(env.ctx)
        const balance = yield* env.core.balances.balance(user.value.id)
        const current = user.value.tier
        const tier = apiDocsOut(current).tiers.find((terms) => String(terms.tier) === env.query.get("tier"))
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
          } satisfies PageResult
        }
        return page(tierConfirmPage(env.ctx, { tier, balance }))
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
      load(env, ["/v2/admin", "/v2/admin/payments"], (home: typeof Dto.AdminHome.Type, payments: { total: number }) =>
        adminHomePage(env.ctx, { home, unmatchedPayments: payments.total })
      )
  ],
  [
    /^\/v2\/admin\/topups$/,
    (env) =>
      loadWithPeople(
        env,
        [
          "/v2/admin/topups/list?status=review,pending&limit=100",
          "/v2/admin/topups/list?status=paid,cancelled,rejected,expired&limit=50"
        ],
        (ctx, queue: { topups: ReadonlyArray<AdminTopup> }, history: { topups: ReadonlyArray<AdminTopup> }) =>
          // Receipts waiting for a decision first, then the oldest transfer still pending.
          adminTopupsPage(ctx, {
            queue: [...queue.topups].sort(
              (a, b) =>
                Number(b.status === "review") - Number(a.status === "review") ||
                a.created_at.localeCompare(b.created_at)
            ),
            history: history.topups
          })
      )
  ],
  [
    /^\/v2\/admin\/payments$/,
    (env) => {
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
      const params = new URLSearchParams({ ...filter, offset: String(offset), limit: String(limit) })
      return loadWithPeople(
        env,
        [`/v2/admin/payments?${params}`],
        (ctx, list: { payments: ReadonlyArray<AdminPayment>; total: number }) =>
          adminPaymentsPage(ctx, { payments: list.payments, total: list.total, filter })
      )
    }
  ],
  [
    /^\/v2\/admin\/orders$/,
    (env) => {
      const { offset, limit } = paging(env.query, 50)
      const status = env.query.get("status") || null
      const kind = env.query.get("kind") || null
      const filter: AdminOrdersFilter = { status, kind, offset, limit }
      const params = new URLSearchParams({
        offset: String(offset),
        limit: String(limit),
        ...(status ? { status } : {}),
        ...(kind ? { kind } : {})
      })
      return Effect.flatMap(env.giftTitles, (gifts) =>
        loadWithPeople(
          env,
          [`/v2/admin/orders/list?${params}`],
          (ctx, list: { orders: ReadonlyArray<typeof Dto.AdminOrder.Type>; total: number }) =>
            adminOrdersPage(ctx, { orders: list.orders, total: list.total, filter, gifts })
        )
      )
    }
  ],
  [
    /^\/v2\/admin\/users$/,
    (env) => {
      const { offset, limit } = paging(env.query, 50)
      const search = (env.query.get("search") ?? "").slice(0, 64)
      const params = new URLSearchParams({ search, offset: String(offset), limit: String(limit) })
      return load(env, [`/v2/admin/users/list?${params}`], (list: AdminUsersList) =>
        adminUsersPage(env.ctx, list, search)
      )
    }
  ],
  [
    /^\/v2\/admin\/users\/(\d{1,15})$/,
    (env) => load(env, [`/v2/admin/users/${env.match[1]}`], (detail: AdminUserDetail) => adminUserPage(env.ctx, detail))
  ],
  [
    /^\/v2\/admin\/reports$/,
    (env) => {
      const query: ReportQuery = {
        period: env.query.get("period") || "day",
        from: env.query.get("from") ?? "",
        to: env.query.get("to") ?? "",
        tonRate: env.query.get("ton_rate") ?? ""
      }
      const params = new URLSearchParams({
        period: query.period,
        from: query.from,
        to: query.to,
        ton_rate: query.tonRate
      })
      // A refused request (bad dates or rate) is the same page with the form kept and the reason, not an error page.
      return Effect.gen(function* () {
        const today = tashkentDay(new Date(yield* Clock.currentTimeMillis))
        const answer = yield* env.get(`/v2/admin/reports/data?${params}`)
        if (answer.status === 422) return page(adminReportsPage(env.ctx, query, undefined, today))
        return withJson(env, [answer], (data: ReportData) =>
          adminReportsPage(env.ctx, { ...query, from: data.from, to: data.to }, data, today)
        )
      })
    }
  ],
  [
    /^\/v2\/admin\/tickets$/,
    (env) =>
      loadWithPeople(env, ["/v2/admin/tickets"], (ctx, list: typeof Dto.Tickets.Type) => adminTicketsPage(ctx, list))
  ],
  [
    /^\/v2\/admin\/tickets\/(\d{1,15})$/,
    (env) =>
      loadWithPeople(env, [`/v2/admin/tickets/${env.match[1]}`], (ctx, detail: typeof Dto.TicketDetail.Type) =>
        ticketPage(ctx, { detail, viewer: "operator" })
      )
  ]
]

export const findPage = (path: string): readonly [RegExpExecArray, Loader] | undefined => {
  for (const [pattern, loader] of PAGES) {
    const match = pattern.exec(path)
    if (match) return [match, loader]
  }
  return undefined
}
