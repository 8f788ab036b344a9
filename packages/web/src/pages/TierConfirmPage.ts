import type * as Dto from "@resale/wire/Dtos.ts"
import { type Html, html } from "../Html.ts"
import { actionForm, money, section } from "../layout/Components.ts"
import { layout } from "../layout/Layout.ts"
import type { PageContext } from "../layout/PageContext.ts"

/** The form on the API page asks here (GET); only a post from this page, with `confirm=yes`, pays. */
export const TIER_UPGRADE_PATH = "/v2/api-docs/getinfo-upgrade"
export const TIER_CONFIRM_PATH = "/v2/api-docs/getinfo-upgrade/confirm"

export type TierTerms = (typeof Dto.ApiDocs.Type)["tiers"][number]

export interface TierConfirmData {
  readonly tier: TierTerms
  readonly balance: number
}

/**
 * The step between choosing a lookup tier and paying for it: what it gives, its price, the balance
 * before and after, and the one button that takes the money (or the way to top up when short).
 */
export const tierConfirmPage = (ctx: PageContext, data: TierConfirmData): Html => {
  const { t } = ctx.tr
  const { tier, balance } = data
  const short = tier.price_uzs - balance
  const terms = html`<p>${t("api.tierConfirmText", { tier: String(tier.tier), limit: ctx.tr.number(tier.daily_limit) })}</p>
<p class="pay-amount"><strong>${money(ctx.tr, tier.price_uzs)}</strong></p>`
  const decide =
    short > 0
      ? html`<p class="reason">${t("buy.notEnough", { amount: ctx.tr.uzs(short) })}</p>
<p><a class="btn btn-primary" href="/v2/dashboard#topup">${t("topup.title")}</a></p>`
      : html`<p>${t("api.tierConfirmBalance", { balance: ctx.tr.uzs(balance), after: ctx.tr.uzs(balance - tier.price_uzs) })}</p>
${actionForm(ctx, TIER_UPGRADE_PATH, t("api.tierConfirmYes", { price: ctx.tr.uzs(tier.price_uzs) }), {
  idempotent: true,
  fields: html`<input type="hidden" name="tier" value="${String(tier.tier)}"><input type="hidden" name="confirm" value="yes">`
})}`
  return layout(ctx, {
    title: t("api.tierConfirmTitle", { tier: String(tier.tier) }),
    active: "api",
    body: html`<h1>${t("api.tierConfirmTitle", { tier: String(tier.tier) })}</h1>
${section(
  "confirm-tier",
  t("api.tierTitle"),
  html`${terms}
${decide}
<p><a href="/v2/api-docs#tiers">${t("api.tierConfirmNo")}</a></p>`
)}`
  })
}
