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
import { Effect, Option, Redacted } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { ApiDocument } from "@resale/webkit/ApiDocument.ts"
import { callbackUrl, LOGIN_STATE_COOKIE, loginStateCookie, withLoginStateCookie } from "@resale/webkit/LoginState.ts"
import { WebSessions } from "@resale/webkit/WebSessions.ts"
import { GiftCatalog } from "@resale/webkit/GiftCatalog.ts"
import { renderApiSections, renderAuthSection } from "../pages/ApiDocsPage.ts"
import { HttpConfig } from "@resale/webkit/HttpConfig.ts"
import { TopupSettings } from "@resale/core/topups/TopupSettings.ts"
import { receiptLimits } from "@resale/webkit/ReceiptLimits.ts"
import { type Html, prefersHtml, toString, unsafeRaw } from "../Html.ts"
import { LOCALE_COOKIE, negotiateLocale } from "../i18n/Locale.ts"
import { translator } from "../i18n/Translate.ts"
import type { PageContext } from "../layout/PageContext.ts"
import { errorPage } from "../pages/ErrorPage.ts"
import { newApiKeyPage } from "../pages/ApiPage.ts"
import { ASSET_VERSION, safeBack } from "../routes/AssetRoutes.ts"
import { isFormPost, readBrowserForm } from "./BrowserForm.ts"
import { codeLines, errorLines, withReceiptSize } from "./ErrorText.ts"
import { findForm, formAnchor, formBack, type FormServices } from "./FormTable.ts"
import type { FormResult } from "./Forms.ts"
import { isDatabaseUnavailable } from "@resale/webkit/DatabaseOutage.ts"
import { isSameOrigin } from "@resale/webkit/OriginCheck.ts"
import { redirectWithCookie } from "@resale/webkit/OperatorSignIn.ts"
import { routeAnswer, type RouterEffect } from "./RouteAnswer.ts"
import { findPage, type PageResult } from "./PageRoutes.ts"
import { keptValues } from "../layout/FormRecall.ts"
import { askFirst } from "./AskFirst.ts"
import { walletPost } from "./WalletPages.ts"
import { walletPostWait } from "./WalletLimit.ts"
import { NEW_KEY_COOKIE, NEW_KEY_PATH, openKey, sealKey } from "./NewKeyOnce.ts"
import {
  CSRF_COOKIE,
  csrfToken,
  csrfValid,
  decodeFlash,
  encodeFlash,
  type Flash,
  FLASH_COOKIE,
  newCsrfSecret
} from "./WebCookies.ts"

/**
 * The browser's way into the server: a global router middleware in front of every /v2 route.
 * Requests that prefer HTML (page loads and form posts) get pages in the user's language; every
 * other request (API clients, the pages' own fetches) passes through untouched, so each route still
 * answers JSON exactly as before. Form posts must carry the CSRF token; each calls core through its
 * entry of the form table (`FormTable.ts`), with its route's checks (fields, session, origin), and
 * is answered with a redirect and a one-shot message.
 */
const CSP = [
  "default-src 'self'",
  "script-src 'self' https://telegram.org",
  "frame-src https://oauth.telegram.org",
  "img-src 'self' data: blob: https://t.me https://telegram.org https://*.telegram.org",
  "style-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "object-src 'none'"
].join("; ")

const THIRTY_DAYS = "2592000 seconds"

const pathOf = (url: string) => url.split("?")[0]!.split("#")[0]!

/**
 * Where a failed form returns: the page it was sent from (a same-host Referer), at the form's own
 * anchor when that page is the form's usual home; else the form's usual home.
 */
const backAfterFailure = (request: HttpServerRequest.HttpServerRequest, path: string): string => {
  const usual = formBack(path)
  const referer = request.headers["referer"]
  if (!referer) return usual
  try {
    const from = new URL(referer)
    if (from.host !== request.headers["host"]) return usual
    const page = from.pathname + from.search
    return page === pathOf(usual) ? usual : safeBack(page) === "/v2/" && page !== "/v2/" ? usual : safeBack(page)
  } catch {
    return usual
  }
}

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
    const walletWait = yield* walletPostWait
    // The limits TopupService checks, read once as it reads them: an override reaches the page too.
    const topupSettings = yield* TopupSettings
    const receipt = receiptLimits(topupSettings)
    const topupLimits = { min: topupSettings.minUzs, max: topupSettings.maxUzs, receiptBytes: receipt.file }
    const formMaxBytes = receipt.body
    const secret = Redacted.value(config.cookieSecret)
    const secure = config.publicUrl.startsWith("https://")
    const { document } = yield* ApiDocument
    const reference: Html = unsafeRaw(renderAuthSection(document) + renderApiSections(document))
    const giftTitles = Effect.map(catalog.list, (gifts) => Object.fromEntries(gifts.map((g) => [g.id, g.title])))

    // What the forms' core calls need, as the JSON handlers get it.
    const formServices = yield* Effect.context<FormServices>()
    /** A defect of a form's call: the database away is said so, anything else is our fault. */
    const formDefect = (cause: unknown) =>
      isDatabaseUnavailable(cause)
        ? Effect.succeed({ _tag: "Refused", lines: codeLines("database_unavailable") } satisfies FormResult)
        : Effect.as(Effect.logError("web form: call failed", cause), {
            _tag: "Refused",
            lines: codeLines("internal_error")
          } satisfies FormResult)

    const cookieOptions = { path: "/", httpOnly: true, sameSite: "lax" as const, secure }

    /** The per-request context of a page, and the cookies the answer must set. */
    const context = (request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function* () {
        const existing = request.cookies[CSRF_COOKIE]
        const csrfCookie = existing && existing.length >= 16 ? existing : newCsrfSecret()
        const path = pathOf(request.url)
        const area = path.startsWith("/v2/admin") ? ("admin" as const) : ("user" as const)
        const signedIn = area === "user" && Option.isSome(yield* sessions.user(request))
        const ctx: PageContext = {
          tr: translator(negotiateLocale(request.cookies[LOCALE_COOKIE], request.headers["accept-language"])),
          sandbox: config.sandbox,
          explorer: config.explorerUrl,
          csrf: csrfToken(secret, csrfCookie),
          flash: decodeFlash(secret, request.cookies[FLASH_COOKIE]),
          path: request.url,
          area: area === "user" && !signedIn ? "public" : area,
          signedIn,
          assetVersion: ASSET_VERSION
        }
        // The home page shows the sign-in widget: its callback is bound to this browser (auth/LoginState.ts).
        const login =
          area === "user" && !signedIn && /^\/v2\/?$/.test(path)
            ? loginStateCookie(request.cookies[LOGIN_STATE_COOKIE])
            : undefined
        return {
          ctx,
          newCsrf: csrfCookie === existing ? undefined : csrfCookie,
          hadFlash: request.cookies[FLASH_COOKIE] !== undefined,
          authUrl: login ? callbackUrl(config.publicUrl, secret, login.value) : undefined,
          newLoginState: login?.isNew ? login.value : undefined
        }
      })

    type Prepared = Effect.Success<ReturnType<typeof context>>

    const finish = (prepared: Prepared, response: HttpServerResponse.HttpServerResponse) => {
      let out = response
      if (prepared.newCsrf)
        out = HttpServerResponse.setCookieUnsafe(out, CSRF_COOKIE, prepared.newCsrf, {
          ...cookieOptions,
          maxAge: THIRTY_DAYS
        })
      if (prepared.hadFlash) out = HttpServerResponse.expireCookieUnsafe(out, FLASH_COOKIE, { path: "/" })
      if (prepared.newLoginState) out = withLoginStateCookie(out, prepared.newLoginState, secure)
      return out
    }

    const htmlResponse = (prepared: Prepared, body: Html, status = 200) =>
      finish(
        prepared,
        HttpServerResponse.text(toString(body), {
          status,
          contentType: "text/html; charset=utf-8",
          headers: {
            "content-security-policy": CSP,
            "x-content-type-options": "nosniff",
            "referrer-policy": "same-origin",
            "x-frame-options": "DENY",
            "cache-control": "private, no-store"
          }
        })
      )

    const redirect = (to: string, flash: Flash | undefined, prepared?: Prepared) => {
      const response = HttpServerResponse.redirect(to, { status: 303 })
      const withFlash = flash
        ? HttpServerResponse.setCookieUnsafe(response, FLASH_COOKIE, encodeFlash(secret, flash), {
            ...cookieOptions,
            maxAge: "120 seconds"
          })
        : response
      return prepared ? finish({ ...prepared, hadFlash: false }, withFlash) : withFlash
    }

    const render = (prepared: Prepared, result: PageResult) =>
      result._tag === "Page"
        ? htmlResponse(prepared, result.html)
        : result._tag === "Redirect"
          ? redirect(result.to, result.flash, prepared)
          : htmlResponse(prepared, errorPage(prepared.ctx, result.lines), result.status)

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

    /** A form post: CSRF checked, its form's core call made (`FormTable.ts`), answered with a redirect (or the one-time key page). */
    const form = (request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function* () {
        const prepared = yield* context(request)
        const path = pathOf(request.url)
        let back = backAfterFailure(request, path)
        let anchor = /#([a-z0-9-]{1,40})$/.exec(back)?.[1]
        let kept: Record<string, string> | undefined
        /** Not signed in: to the area's sign-in page, saying why. */
        const signIn = (from: string) => {
          const admin = from.startsWith("/v2/admin")
          return redirect(
            admin ? "/v2/admin/login" : "/v2/",
            { kind: "error", lines: [{ key: admin ? "error.adminSignIn" : "error.signIn" }] },
            prepared
          )
        }
        /** The new API key travels sealed to the one page that shows it once. */
        const showKeyOnce = (key: string) =>
          HttpServerResponse.setCookieUnsafe(
            redirect(NEW_KEY_PATH, undefined, prepared),
            NEW_KEY_COOKIE,
            sealKey(secret, key),
            { ...cookieOptions, path: NEW_KEY_PATH, maxAge: "300 seconds" }
          )
        const fail = (lines: Flash["lines"]) =>
          redirect(
            back,
            {
              kind: "error",
              lines: withReceiptSize(lines, receipt.file),
              ...(anchor ? { form: anchor } : {}),
              ...(kept ? { values: kept } : {})
            },
            prepared
          )
        const read = yield* Effect.result(readBrowserForm(request, formMaxBytes))
        if (read._tag === "Failure") return fail([{ key: "error.receiptLarge" }])
        const posted = read.success
        kept = keptValues(posted.fields)
        const many = formAnchor(path)
        if (many !== undefined) {
          anchor = many
          back = `${back.split("#")[0]}#${many}`
        }
        if (!csrfValid(secret, request.cookies[CSRF_COOKIE], posted.csrf)) return fail([{ key: "error.csrf" }])
        // The wallet page's posts call core's wallet road themselves (gateway/WalletPages.ts).
        const wallet = walletPost(path, core.wallet, posted.fields, kept ?? {}, walletWait(request))
        if (wallet !== undefined) return render(prepared, yield* wallet)
        // Replacing the key or spending the balance without a purchase form: only from the confirmation page.
        const question = askFirst(path, posted.fields)
        if (question !== undefined) return redirect(question, undefined, prepared)
        const found = findForm(path)
        if (found !== undefined) {
          const result = yield* found[1]
            .post(found[0], posted.fields, {
              user: sessions.user(request),
              operator: sessions.operator(request),
              sameSite: isSameOrigin(request.headers, [config.publicUrl]),
              idempotencyKey: posted.idempotencyKey,
              files: posted.files,
              host: request.headers["host"] ?? "",
              request
            })
            .pipe(Effect.provideContext(formServices), Effect.catchDefect(formDefect))
          if (result._tag === "SignIn") return signIn(path)
          if (result._tag === "Refused") return fail(result.lines)
          const { next, flash, newKey, cookie } = result.outcome
          if (cookie !== undefined) return redirectWithCookie(next, cookie, sessions.secureCookies)
          return newKey === undefined ? redirect(next, flash, prepared) : showKeyOnce(newKey)
        }
        // Not one of our forms: nothing to post it to.
        return fail(codeLines("not_found"))
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
