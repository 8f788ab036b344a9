import { Accounts } from "@resale/core/accounts/Accounts.ts"
import { Balances } from "@resale/core/ledger/Balances.ts"
import { TopupService } from "@resale/core/topups/TopupService.ts"
import { OrderService } from "@resale/core/orders/OrderService.ts"
import { PricingService } from "@resale/core/pricing/PricingService.ts"
import { OperatorStatus } from "@resale/core/status/OperatorStatus.ts"
import { TicketService } from "@resale/core/tickets/TicketService.ts"
import { Webhooks } from "@resale/core/webhooks/Webhooks.ts"
import { SandboxPushInbox } from "@resale/push/SandboxPushInbox.ts"
import { Reports } from "@resale/core/reports/Reports.ts"
import { Payments } from "@resale/core/payments/Payments.ts"
import { WebhookOversight } from "@resale/core/webhooks/WebhookOversight.ts"
import { WalletCheckout } from "@resale/core/direct/WalletCheckout.ts"
import { Effect, Option } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { ApiDocument } from "@resale/webkit/ApiDocument.ts"
import { WebSessions } from "@resale/webkit/WebSessions.ts"
import { GiftCatalog } from "@resale/webkit/GiftCatalog.ts"
import { renderApiSections, renderAuthSection } from "../pages/ApiDocsPage.ts"
import { HttpConfig } from "@resale/webkit/HttpConfig.ts"
import { TopupSettings } from "@resale/core/topups/TopupSettings.ts"
import { receiptLimits } from "@resale/webkit/ReceiptLimits.ts"
import { type Html, prefersHtml, unsafeRaw } from "../Html.ts"
import { errorPage } from "../pages/ErrorPage.ts"
import { newApiKeyPage } from "../pages/ApiPage.ts"
import { browserAnswers, pathOf } from "./BrowserAnswers.ts"
import { isFormPost } from "./BrowserForm.ts"
import { errorLines, withReceiptSize } from "./ErrorText.ts"
import { formPost } from "./FormPost.ts"
import { routeAnswer, type RouterEffect } from "./RouteAnswer.ts"
import { findPage } from "./PageRoutes.ts"
import { NEW_KEY_COOKIE, NEW_KEY_PATH, openKey } from "./NewKeyOnce.ts"

/**
 * The browser's way into the server: a global router middleware in front of every /v2 route.
 * Requests that prefer HTML (page loads and form posts) get pages in the user's language; every
 * other request (API clients, the pages' own fetches) passes through untouched, so each route still
 * answers JSON exactly as before. Form posts must carry the CSRF token; each calls core through its
 * entry of the form table (`FormTable.ts`), with its route's checks (fields, session, origin), and
 * is answered with a redirect and a one-shot message.
 */
export const WebGateway = HttpRouter.middleware(
  Effect.gen(function* () {
    const config = yield* HttpConfig
    const sessions = yield* WebSessions
    const catalog = yield* GiftCatalog
    const core = {
      accounts: yield* Accounts,
      topups: yield* TopupService,
      balances: yield* Balances,
      orders: yield* OrderService,
      tickets: yield* TicketService,
      pricing: yield* PricingService,
      gifts: catalog,
      status: yield* OperatorStatus,
      webhooks: yield* Webhooks,
      sandboxInbox: yield* SandboxPushInbox,
      reports: yield* Reports,
      webhookOversight: yield* WebhookOversight,
      payments: yield* Payments,
      wallet: Option.getOrUndefined(yield* Effect.serviceOption(WalletCheckout))
    }
    // The limits TopupService checks, read once as it reads them: an override reaches the page too.
    const topupSettings = yield* TopupSettings
    const receipt = receiptLimits(topupSettings)
    const topupLimits = { min: topupSettings.minUzs, max: topupSettings.maxUzs, receiptBytes: receipt.file }
    const { document } = yield* ApiDocument
    const reference: Html = unsafeRaw(renderAuthSection(document) + renderApiSections(document))
    const giftTitles = Effect.map(catalog.list, (gifts) => Object.fromEntries(gifts.map((g) => [g.id, g.title])))
    const answers = yield* browserAnswers
    const { secret, context, htmlResponse, render } = answers
    const form = yield* formPost(answers, core.wallet, receipt)

    /** A page load: one of our pages, or the route's own answer with errors turned into words. */
    const page = (router: RouterEffect, request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function* () {
        const prepared = yield* context(request)
        const path = pathOf(request.url)
        if (path === NEW_KEY_PATH) {
          const key = openKey(secret, request.cookies[NEW_KEY_COOKIE])
          const response = htmlResponse(prepared, newApiKeyPage(prepared.ctx, key ?? null))
          return key === undefined
            ? response
            : HttpServerResponse.expireCookieUnsafe(response, NEW_KEY_COOKIE, { path: NEW_KEY_PATH })
        }
        const found = findPage(path)
        if (found) {
          const [match, loader] = found
          return render(
            prepared,
            yield* loader({
              ctx: prepared.ctx,
              match,
              query: new URL(request.url, "http://localhost").searchParams,
              user: sessions.user(request),
              operator: sessions.operator(request),
              core,
              publicUrl: config.publicUrl,
              botUsername: config.botUsername,
              authUrl: prepared.authUrl ?? `${config.publicUrl}/v2/auth/messenger/callback`,
              paymentCard: config.paymentCard,
              topupLimits,
              giftTitles,
              reference
            })
          )
        }
        const answer = yield* routeAnswer(router, request)
        const type = answer.response.headers["content-type"] ?? ""
        if (answer.status >= 400 && type.includes("json")) {
          return htmlResponse(
            prepared,
            errorPage(prepared.ctx, withReceiptSize(errorLines(answer.status, answer.text), receipt.file)),
            answer.status
          )
        }
        return answer.response
      })

    return (router: RouterEffect) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        if (!request.url.startsWith("/v2") || !prefersHtml(request.headers["accept"])) return yield* router
        if (request.method === "GET") return yield* page(router, request)
        if (isFormPost(request)) return yield* form(request)
        return yield* router
      })
  }),
  { global: true }
)
