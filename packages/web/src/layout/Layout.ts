import { type Html, html, jsonBlock, toString, unsafeRaw } from "../Html.ts"
import { OrderFailureCode } from "@resale/core/orders/OrderFailure.ts"
import type { MessageKey } from "../i18n/en.ts"
import { LOCALE_NAMES, LOCALE_SHORT, LOCALE_TAGS, LOCALES } from "../i18n/Locale.ts"
import { MONEY_FORMAT, PLURAL_ORDER } from "../i18n/Translate.ts"
import { flashBox } from "./Components.ts"
import { placeInSection, refillSection } from "./FormRecall.ts"
import type { NavKey, PageContext } from "./PageContext.ts"
import { failureKey } from "../pages/OrderViews.ts"

/** Messages the client script needs for what it writes itself (live statuses, countdowns, push). */
const CLIENT_KEYS: ReadonlyArray<MessageKey> = [
  "common.copied",
  "error.network",
  "error.generic",
  "topup.credited",
  "topup.settledTitle",
  "topup.rejectedBecause",
  "topup.expired",
  "topup.waiting",
  "buy.afterBalance",
  "buy.notEnough",
  "ticket.you",
  "ticket.support",
  "common.user",
  "push.enabled",
  "push.unsupported",
  "push.denied",
  "push.unavailable",
  "push.failed",
  "status.topup.pending",
  "status.topup.review",
  "status.topup.paid",
  "status.topup.cancelled",
  "status.topup.rejected",
  "status.topup.expired",
  "status.order.queued",
  "status.order.processing",
  "status.order.completed",
  "status.order.failed",
  "status.ticket.open",
  "status.ticket.closed",
  "orders.retrying",
  "orders.sentOnChain",
  "orders.viewPayment",
  ...OrderFailureCode.literals.map(failureKey)
]

const USER_NAV: ReadonlyArray<readonly [NavKey, string, MessageKey]> = [
  ["dashboard", "/v2/dashboard", "nav.dashboard"],
  ["orders", "/v2/orders", "nav.orders"],
  ["history", "/v2/history", "nav.history"],
  ["gifts", "/v2/gifts", "nav.gifts"],
  ["support", "/v2/tickets", "nav.support"],
  ["api", "/v2/api-docs", "nav.api"]
]

const ADMIN_NAV: ReadonlyArray<readonly [NavKey, string, MessageKey]> = [
  ["admin", "/v2/admin", "nav.admin"],
  ["topups", "/v2/admin/topups", "nav.topups"],
  ["payments", "/v2/admin/payments", "nav.payments"],
  ["adminOrders", "/v2/admin/orders", "nav.adminOrders"],
  ["tickets", "/v2/admin/tickets", "nav.tickets"],
  ["people", "/v2/admin/users", "nav.people"],
  ["reports", "/v2/admin/reports", "nav.reports"],
  ["status", "/v2/admin/status", "nav.status"]
]

const menu = (ctx: PageContext, active: NavKey): Html => {
  const { t } = ctx.tr
  const entries =
    ctx.area === "admin"
      ? ADMIN_NAV
      : ctx.signedIn
        ? USER_NAV
        : [["home", "/v2/", "nav.home"] as const, ["api", "/v2/api-docs", "nav.api"] as const]
  const signOut =
    ctx.area === "admin"
      ? html`<li><a href="/v2/admin/logout">${t("nav.signOut")}</a></li>`
      : ctx.signedIn
        ? html`<li><a href="/v2/logout">${t("nav.signOut")}</a></li>`
        : html``
  return html`<nav class="menu" aria-label="${t("nav.label")}"><ul>${entries.map(
    ([key, href, label]) =>
      html`<li><a href="${href}"${key === active ? html` aria-current="page"` : ""}>${t(label)}</a></li>`
  )}${signOut}</ul></nav>`
}

const languages = (ctx: PageContext): Html =>
  html`<nav class="langs" aria-label="${ctx.tr.t("lang.label")}"><ul>${LOCALES.map(
    (locale) =>
      html`<li><a href="/v2/lang?to=${locale}&amp;back=${encodeURIComponent(ctx.path)}" lang="${LOCALE_TAGS[locale]}" hreflang="${
        LOCALE_TAGS[locale]
      }"${locale === ctx.tr.locale ? html` aria-current="true"` : ""}><span class="lang-long">${LOCALE_NAMES[locale]}</span><span class="lang-short" aria-hidden="true">${
        LOCALE_SHORT[locale]
      }</span></a></li>`
  )}</ul></nav>`

export interface PageSpec {
  readonly title: string
  readonly active: NavKey
  readonly body: Html
  /** Data for the client script (`#page-data`), when the page has live parts. */
  readonly data?: unknown
}

/**
 * The flash and the content: a form's failure sits in that form's section with what was typed put
 * back (layout/FormRecall.ts); any other message stays at the top of the page.
 */
const flashAndBody = (ctx: PageContext, body: Html): Html => {
  const box = flashBox(ctx)
  const form = ctx.flash?.form
  if (form === undefined) return html`${box}${body}`
  const values = ctx.flash?.values
  const filled = values ? refillSection(toString(body), form, values) : toString(body)
  const placed = placeInSection(filled, form, toString(box))
  return placed === undefined ? html`${box}${unsafeRaw(filled)}` : unsafeRaw(placed)
}

/** The frame of every page: banner, header, menu, language switcher, flash, content, script. */
export const layout = (ctx: PageContext, page: PageSpec): Html => {
  const { t, locale } = ctx.tr
  const client = {
    locale,
    money: MONEY_FORMAT[locale],
    plural: PLURAL_ORDER[locale],
    messages: Object.fromEntries(CLIENT_KEYS.map((key) => [key, ctx.tr.t(key)]))
  }
  const home = ctx.area === "admin" ? "/v2/admin" : ctx.signedIn ? "/v2/dashboard" : "/v2/"
  return html`<!doctype html>
<html lang="${LOCALE_TAGS[locale]}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.title} · ${t("app.name")}</title>
<link rel="stylesheet" href="/v2/static/app.css?v=${ctx.assetVersion}">
<link rel="icon" href="/v2/static/icon.svg?v=${ctx.assetVersion}" type="image/svg+xml">
<script src="/v2/static/app.js?v=${ctx.assetVersion}" defer></script>
</head>
<body class="area-${ctx.area}">
<a class="skip" href="#main">${t("skip")}</a>
${ctx.sandbox ? html`<div class="sandbox" role="note"><strong>Sandbox</strong> ${t("sandbox.banner")} <a href="/v2/sandbox">${t("sandbox.link")}</a></div>` : ""}
<header class="top">
<a class="brand" href="${home}"><img src="/v2/static/icon.svg?v=${ctx.assetVersion}" alt="" width="28" height="28"><span>${t(
    "app.name"
  )}</span>${ctx.area === "admin" ? html`<span class="brand-tag">${t("nav.admin")}</span>` : ""}</a>
${languages(ctx)}
${menu(ctx, page.active)}
</header>
<main id="main" tabindex="-1">
${flashAndBody(ctx, page.body)}
</main>
<footer class="foot"><p>${t("app.tagline")}</p></footer>
${jsonBlock("client-config", client)}
${page.data === undefined ? "" : jsonBlock("page-data", page.data)}
</body>
</html>`
}
