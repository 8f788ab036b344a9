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
import { messageOut, orderOut, pricingOut, ticketOut, topupOut, userOut } from "@resale/wire"
import { Effect, Option, Schema, type Types } from "effect"
import type { Reports } from "@resale/core/reports/Reports.ts"
import type { Payments } from "@resale/core/payments/Payments.ts"
import type { WebhookOversight } from "@resale/core/webhooks/WebhookOversight.ts"
import type { WalletCheckout } from "@resale/core/direct/WalletCheckout.ts"
import { apiDocsOut, historyPageOut, homeOut, webhookEndpointOut } from "@resale/wire/Dtos.ts"
import type { Html } from "../Html.ts"
import type { PageContext } from "../layout/PageContext.ts"
import { apiPage, confirmRotatePage } from "../pages/ApiPage.ts"
import { dashboardPage, type TopupLimits } from "../pages/DashboardPage.ts"
import { giftsPage } from "../pages/GiftsPage.ts"
import { historyPage } from "../pages/HistoryPage.ts"
import { homePage } from "../pages/HomePage.ts"
import { sandboxPage } from "../pages/SandboxPage.ts"
import type { GiftTitles } from "../pages/OrderViews.ts"
import { ordersPage } from "../pages/OrdersPage.ts"
import { ticketPage } from "../pages/TicketPage.ts"
import { ticketsPage } from "../pages/TicketsPage.ts"
import { tierConfirmPage } from "../pages/TierConfirmPage.ts"
import { codeLines } from "./ErrorText.ts"
import { OPERATOR_PAGES } from "./OperatorPages.ts"
import { WALLET_PAGES } from "./WalletPages.ts"
import { type PageResult, page, paging, signInFirst } from "./PageKit.ts"

/**
 * The HTML pages (the operator panel's are `OperatorPages.ts`): most call core's use cases and draw
 * the records through the JSON routes' mappers; the rest still fetch the JSON their route answers
 * (through the same router and checks). Not signed in sends the browser to sign in; other errors
 * are a page in words.
 */
export type { PageResult }

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
    readonly reports: Reports["Service"]
    readonly webhookOversight: WebhookOversight["Service"]
    readonly payments: Payments["Service"]
    /** The wallet road for the wallet page; absent where the server mounts the web UI without it. */
    readonly wallet: WalletCheckout["Service"] | undefined
  }
  readonly publicUrl: string
  /** The sign-in widget's bot (`TELEGRAM_BOT_USERNAME`), if any. */
  readonly botUsername: string | null
  /** The sign-in widget's callback URL, bound to this browser. */
  readonly authUrl: string
  readonly paymentCard: string | null
  /** The top-up bounds and the receipt's size limit (`TopupSettings`, as the server was built with). */
  readonly topupLimits: TopupLimits
  readonly giftTitles: Effect.Effect<GiftTitles>
  /** The API reference drawn from the OpenAPI document. */
  readonly reference: Html
}

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
  ...WALLET_PAGES,
  ...OPERATOR_PAGES
]

export const findPage = (path: string): readonly [RegExpExecArray, Loader] | undefined => {
  for (const [pattern, loader] of PAGES) {
    const match = pattern.exec(path)
    if (match) return [match, loader]
  }
  return undefined
}
