import type * as Dto from "@resale/wire/Dtos.ts"
import { type Html, html } from "../Html.ts"
import { field, formGuards, section, submit } from "../layout/Components.ts"
import { layout } from "../layout/Layout.ts"
import type { PageContext } from "../layout/PageContext.ts"

export interface AdminHomeData {
  readonly home: typeof Dto.AdminHome.Type
  readonly unmatchedPayments: number
}

/** The operator's start page: what waits for them, and the price form. */
export const adminHomePage = (ctx: PageContext, data: AdminHomeData): Html => {
  const { t } = ctx.tr
  const p = data.home.pricing
  const counter = (href: string, label: string, n: number) =>
    html`<li class="card counter${n > 0 ? " counter-hot" : ""}"><a href="${href}"><span class="count">${ctx.tr.number(n)}</span> <span>${label}</span></a></li>`
  const price = (name: string, label: string, value: number) =>
    field({ name, label, type: "number", required: true, min: 1, step: 1, value, inputmode: "numeric" })
  return layout(ctx, {
    title: t("admin.title"),
    active: "admin",
    body: html`<h1>${t("admin.title")}</h1>
<ul class="counters">
${counter("/v2/admin/topups", t("admin.reviewTopups"), data.home.review_topups)}
${counter("/v2/admin/topups", t("admin.pendingTopups"), data.home.pending_topups)}
${counter("/v2/admin/payments?status=unresolved", t("admin.unmatched"), data.unmatchedPayments)}
${counter("/v2/admin/tickets", t("admin.openTickets"), data.home.open_tickets)}
</ul>
${section(
  "pricing",
  t("admin.pricing"),
  html`<form method="post" action="/v2/admin/pricing" class="pricing">${formGuards(ctx)}
${price("star_price_uzs", t("admin.starPrice"), p.star_price_uzs)}
${price("premium_3_month_uzs", t("admin.premium3"), p.premium_3_month_uzs)}
${price("premium_6_month_uzs", t("admin.premium6"), p.premium_6_month_uzs)}
${price("premium_12_month_uzs", t("admin.premium12"), p.premium_12_month_uzs)}
${submit(t("admin.savePrices"))}</form>`
)}`
  })
}

export const adminLoginPage = (ctx: PageContext): Html => {
  const { t } = ctx.tr
  return layout(ctx, {
    title: t("admin.loginTitle"),
    active: "none",
    body: html`<h1>${t("admin.loginTitle")}</h1>
<form method="post" action="/v2/admin/login" class="card narrow">${formGuards(ctx)}
${field({ name: "token", label: t("admin.token"), type: "password", required: true, autocomplete: "current-password" })}
${submit(t("admin.signIn"))}</form>`
  })
}
