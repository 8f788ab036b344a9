import { STARS_MAX, STARS_MIN } from "@resale/core/orders/OrderRules.ts"
import type * as Dto from "@resale/wire/Dtos.ts"
import { type Html, html } from "../Html.ts"
import { field, formGuards, money, section, select, submit } from "../layout/Components.ts"
import { layout } from "../layout/Layout.ts"
import type { PageContext } from "../layout/PageContext.ts"
import { type GiftTitles, ordersTable, topupsTable } from "./OrderViews.ts"
import { pushCard } from "./PushCard.ts"

type Topup = typeof Dto.Topup.Type

/** What the top-up forms tell the shopper: the amount bounds and the receipt's size limit in bytes. */
export interface TopupLimits {
  readonly min: number
  readonly max: number
  readonly receiptBytes: number
}

export interface DashboardData {
  readonly dashboard: typeof Dto.Dashboard.Type
  /** The card shoppers transfer to (from the server's configuration). */
  readonly card: string | null
  readonly limits: TopupLimits
  readonly gifts: GiftTitles
}

/** A pending card top-up: the exact amount, the card, the countdown and its live status line. */
const pendingPanel = (ctx: PageContext, topup: Topup, card: string | null): Html => {
  const { t } = ctx.tr
  const payable = ctx.tr.uzs(topup.payable_uzs)
  return html`<section class="card topup-live" id="topup-${topup.topup_id}" data-topup-id="${topup.topup_id}" data-status="pending" aria-labelledby="topup-${topup.topup_id}-h">
<h2 id="topup-${topup.topup_id}-h">${t("topup.pendingTitle", { id: String(topup.topup_id) })}</h2>
<div class="pay">
<p class="pay-label">${t("topup.payExactly")}</p>
<p class="pay-amount"><span id="payable-${topup.topup_id}" class="money big">${payable}</span>
<button type="button" class="btn btn-secondary btn-small" data-copy="${String(topup.payable_uzs)}" aria-describedby="payable-${topup.topup_id}">${t("common.copy")}</button></p>
<p class="hint">${t("topup.exactHint")}</p>
${
  card
    ? html`<p class="pay-label">${t("topup.card")}</p>
<p class="pay-card"><span id="card-${topup.topup_id}" class="card-number">${card}</span>
<button type="button" class="btn btn-secondary btn-small" data-copy="${card.replace(/\s/g, "")}" aria-describedby="card-${topup.topup_id}">${t("common.copy")}</button></p>`
    : html`<p class="reason">${t("topup.noCard")}</p>`
}
${topup.expires_at ? html`<p class="countdown">${t("topup.expiresIn")}: <strong data-expires="${topup.expires_at}">--:--</strong></p>` : ""}
</div>
<p class="live-status" role="status" aria-live="polite" data-topup-status>${t("topup.waiting")}</p>
<form method="post" action="/v2/balance/topup/${topup.topup_id}/cancel" class="inline">${formGuards(ctx)}${submit(t("topup.cancel"), { kind: "secondary" })}</form>
</section>`
}

const reviewPanel = (ctx: PageContext, topup: Topup): Html =>
  html`<section class="card topup-live" id="topup-${topup.topup_id}" data-topup-id="${topup.topup_id}" data-status="review" aria-labelledby="topup-${topup.topup_id}-h">
<h2 id="topup-${topup.topup_id}-h">${ctx.tr.t("topup.reviewTitle", { id: String(topup.topup_id) })}</h2>
<p class="live-status" role="status" aria-live="polite" data-topup-status>${ctx.tr.t("topup.reviewText", {
    amount: ctx.tr.uzs(topup.amount_uzs)
  })}</p>
</section>`

const topupForms = (ctx: PageContext, data: DashboardData): Html => {
  const { t } = ctx.tr
  const { min, max } = data.limits
  const hint = t("topup.amountHint", { min: ctx.tr.uzs(min), max: ctx.tr.uzs(max) })
  return html`${section(
    "topup",
    t("topup.title"),
    html`<form method="post" action="/v2/balance/top-up">${formGuards(ctx, { idempotent: true })}
${field({ name: "amount_uzs", label: t("topup.amount"), type: "number", required: true, min, max, step: 1, inputmode: "numeric", hint })}
${submit(t("topup.submit"))}</form>`
  )}
${section(
  "receipt",
  t("receipt.title"),
  html`<p class="hint">${t("receipt.lead")}</p>
<form method="post" action="/v2/balance/top-up/receipt" enctype="multipart/form-data">${formGuards(ctx, { idempotent: true })}
${field({ name: "amount_uzs", id: "receipt-amount", label: t("receipt.amount"), type: "number", required: true, min: 1, step: 1, inputmode: "numeric" })}
${field({ name: "receipt", label: t("receipt.file", { size: ctx.tr.size(data.limits.receiptBytes) }), type: "file", required: true, accept: "image/jpeg,image/png,image/webp,image/gif,application/pdf" })}
${submit(t("receipt.submit"), { kind: "secondary" })}</form>`
)}`
}

const buyForms = (ctx: PageContext, data: DashboardData): Html => {
  const { t } = ctx.tr
  const pricing = data.dashboard.pricing
  const username = (id: string) =>
    field({
      name: "username",
      id,
      label: t("buy.username"),
      required: true,
      autocomplete: "off",
      pattern: "@?[A-Za-z][A-Za-z0-9_]{3,31}",
      maxlength: 33,
      hint: t("buy.usernameHint")
    })
  const premium = [3, 6, 12] as const
  const premiumPrice = (n: 3 | 6 | 12) =>
    n === 3 ? pricing.premium_3_month_uzs : n === 6 ? pricing.premium_6_month_uzs : pricing.premium_12_month_uzs
  return html`${section(
    "buy-stars",
    t("buy.stars.title"),
    html`<form method="post" action="/v2/orders/stars" data-price-form data-unit-price="${pricing.star_price_uzs}">${formGuards(
      ctx,
      { idempotent: true }
    )}
${username("stars-username")}
${field({ name: "amount", id: "stars-amount", label: t("buy.stars.amount"), type: "number", required: true, min: STARS_MIN, max: STARS_MAX, step: 1, value: STARS_MIN, inputmode: "numeric", hint: t("buy.stars.amountHint", { min: ctx.tr.number(STARS_MIN), max: ctx.tr.number(STARS_MAX), price: ctx.tr.uzs(pricing.star_price_uzs) }), extra: html` data-quantity` })}
<p class="total">${t("buy.total")}: <output data-total for="stars-amount">${ctx.tr.uzs(50 * pricing.star_price_uzs)}</output></p>
<p class="hint" data-after aria-live="polite"></p>
${submit(t("buy.stars.submit"))}</form>`
  )}
${section(
  "buy-premium",
  t("buy.premium.title"),
  html`<form method="post" action="/v2/orders/premium" data-price-form>${formGuards(ctx, { idempotent: true })}
${username("premium-username")}
${select({
  name: "duration",
  id: "premium-duration",
  label: t("buy.premium.duration"),
  options: premium.map((n) => ({
    value: String(n),
    label: t("buy.premium.option", { n, price: ctx.tr.uzs(premiumPrice(n)) }),
    selected: n === 3,
    data: html` data-price="${premiumPrice(n)}"`
  }))
})}
<p class="total">${t("buy.total")}: <output data-total for="premium-duration">${ctx.tr.uzs(pricing.premium_3_month_uzs)}</output></p>
<p class="hint" data-after aria-live="polite"></p>
${submit(t("buy.premium.submit"))}</form>
<p><a href="/v2/gifts">${t("buy.gift.link")} →</a></p>`
)}`
}

export const dashboardPage = (ctx: PageContext, data: DashboardData): Html => {
  const { t } = ctx.tr
  const d = data.dashboard
  const name = d.user.first_name ?? (d.user.username ? `@${d.user.username}` : `#${d.user.user_id}`)
  const live = d.topups.filter((tp) => tp.status === "pending" || tp.status === "review")
  return layout(ctx, {
    title: t("dash.title"),
    active: "dashboard",
    body: html`<h1>${t("dash.title")}</h1>
<p>${t("dash.hello", { name })}</p>
<section class="card balance-card" aria-labelledby="balance-h">
<h2 id="balance-h">${t("dash.balance")}</h2>
<p class="balance"><output id="balance" data-balance="${d.balance_uzs}" aria-live="polite">${money(ctx.tr, d.balance_uzs)}</output></p>
</section>
<div id="live-topups">${live.map((tp) => (tp.status === "pending" ? pendingPanel(ctx, tp, data.card) : reviewPanel(ctx, tp)))}</div>
<div class="grid">
${topupForms(ctx, data)}
${buyForms(ctx, data)}
</div>
${section("recent-orders", t("dash.recentOrders"), html`${ordersTable(ctx.tr, d.orders, data.gifts, { explorer: ctx.explorer })}<p><a href="/v2/orders">${t("dash.allOrders")} →</a></p>`)}
${section("recent-topups", t("dash.topups"), topupsTable(ctx.tr, d.topups))}
${pushCard(ctx)}`,
    data: {
      balance: d.balance_uzs,
      topupPoll: "/v2/balance/topup-status",
      ordersPoll: "/v2/orders/list?offset=0&limit=10",
      explorer: ctx.explorer ?? null,
      live: live.map((tp) => ({ id: tp.topup_id, status: tp.status }))
    }
  })
}
