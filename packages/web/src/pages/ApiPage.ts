import type * as Dto from "@resale/wire/Dtos.ts"
import type { WebhookEndpointView } from "@resale/wire/Dtos.ts"
import { type Html, html } from "../Html.ts"
import { actionForm, section, select, submit, table, time } from "../layout/Components.ts"
import { layout } from "../layout/Layout.ts"
import type { PageContext } from "../layout/PageContext.ts"
import { TIER_CONFIRM_PATH } from "./TierConfirmPage.ts"

export interface ApiData {
  readonly docs: typeof Dto.ApiDocs.Type
  /** The signed-in shopper, if any. */
  readonly user: typeof Dto.UserOut.Type | null
  readonly baseUrl: string
  /** The endpoint list rendered from the OpenAPI document. */
  readonly reference: Html
  /** The signed-in shopper's webhook endpoints (registered with the API key). */
  readonly webhooks: ReadonlyArray<WebhookEndpointView>
}

/** The key's webhook endpoints, each with a delete button (a guarded form post, like the page's others). */
const webhooksCard = (ctx: PageContext, data: ApiData): Html => {
  const { t } = ctx.tr
  if (data.user === null) return html``
  return section(
    "webhooks",
    t("api.webhooksTitle"),
    html`<p class="hint">${t("api.webhooksLead")}</p>
${table({
  caption: t("api.webhooksTitle"),
  id: "webhook-list",
  headers: [t("api.webhookUrl"), t("api.webhookEvents"), t("api.webhookCreated"), t("api.webhookActions")],
  rows: data.webhooks.map((w) => ({
    attrs: html` id="webhook-${String(w.id)}"`,
    cells: [
      html`<code>${w.url}</code>`,
      w.events.join(", "),
      time(w.created_at),
      actionForm(ctx, `/v2/api-key/webhooks/${w.id}/delete`, t("api.webhookDelete"), { kind: "danger" })
    ]
  })),
  empty: t("api.webhooksNone")
})}`
  )
}

const examples = (ctx: PageContext, baseUrl: string): Html => {
  const { t } = ctx.tr
  const balance = `curl -s ${baseUrl}/v2/api/balance \\\n  -H "X-API-Key: $API_KEY"`
  const stars = `curl -s ${baseUrl}/v2/api/stars/buy \\\n  -H "X-API-Key: $API_KEY" \\\n  -H "Idempotency-Key: order-1001" \\\n  -H "Content-Type: application/json" \\\n  -d '{"username": "durov", "amount": 50}'`
  return section(
    "examples",
    t("api.examples"),
    html`<h3>${t("api.exampleBalance")}</h3><pre><code>${balance}</code></pre>
<h3>${t("api.exampleStars")}</h3><pre><code>${stars}</code></pre>`
  )
}

const keyCard = (ctx: PageContext, user: ApiData["user"]): Html => {
  const { t } = ctx.tr
  if (user === null)
    return section("api-key", t("api.keyTitle"), html`<p><a href="/v2/">${t("api.signInFirst")}</a></p>`)
  return section(
    "api-key",
    t("api.keyTitle"),
    html`<p>${user.has_api_key ? t("api.keyHas") : t("api.keyNone")}</p>
<p class="hint">${t("api.rotateWarn")}</p>
<p><a class="btn btn-primary" href="/v2/api-key/confirm">${user.has_api_key ? t("api.rotate") : t("api.create")}</a></p>`
  )
}

const tierCard = (ctx: PageContext, data: ApiData): Html => {
  const { t } = ctx.tr
  const current = data.docs.current_tier ?? 0
  const currentTerms = data.docs.tiers.find((tier) => tier.tier === current)
  const higher = data.docs.tiers.filter((tier) => tier.tier > current)
  const option = (tier: (typeof data.docs.tiers)[number]) =>
    t("api.tierOption", {
      tier: String(tier.tier),
      limit: ctx.tr.number(tier.daily_limit),
      price: tier.price_uzs === 0 ? t("api.tierFree") : ctx.tr.uzs(tier.price_uzs)
    })
  const form =
    data.user === null
      ? html``
      : higher.length === 0
        ? html`<p>${t("api.tierTop")}</p>`
        : // A question first (GET, no money moves): the confirmation page shows the price and takes it.
          html`<form method="get" action="${TIER_CONFIRM_PATH}">
${select({ name: "tier", label: t("field.tier"), options: higher.map((tier, i) => ({ value: String(tier.tier), label: option(tier), selected: i === 0 })) })}
${submit(t("api.tierSubmit"))}</form>`
  return section(
    "tiers",
    t("api.tierTitle"),
    html`<p>${t("api.tierLead")}</p>
${data.user && currentTerms ? html`<p><strong>${t("api.tierCurrent", { tier: String(current), limit: ctx.tr.number(currentTerms.daily_limit) })}</strong></p>` : ""}
<ul>${data.docs.tiers.map((tier) => html`<li>${option(tier)}</li>`)}</ul>
${form}`
  )
}

export const apiPage = (ctx: PageContext, data: ApiData): Html => {
  const { t } = ctx.tr
  return layout(ctx, {
    title: t("api.title"),
    active: "api",
    body: html`<h1>${t("api.title")}</h1>
<p class="lead">${t("api.lead")}</p>
${keyCard(ctx, data.user)}
${webhooksCard(ctx, data)}
${examples(ctx, data.baseUrl)}
${tierCard(ctx, data)}
${section(
  "reference",
  t("api.reference"),
  html`<p><a href="${data.docs.openapi_url}">${t("api.openapi")}</a></p>
<details class="reference"><summary>${t("api.showReference")}</summary>${data.reference}</details>`
)}`
  })
}

/** The step before a new key: what happens to the old one, and the one button that does it. */
export const confirmRotatePage = (ctx: PageContext, user: typeof Dto.UserOut.Type): Html => {
  const { t } = ctx.tr
  return layout(ctx, {
    title: t("api.confirmTitle"),
    active: "api",
    body: html`<h1>${t("api.confirmTitle")}</h1>
${section(
  "confirm-rotate",
  t("api.keyTitle"),
  html`<p>${user.has_api_key ? t("api.confirmReplace") : t("api.confirmCreate")}</p>
${actionForm(ctx, "/v2/api-key/rotate", user.has_api_key ? t("api.confirmYes") : t("api.create"), {
  kind: user.has_api_key ? "danger" : "primary",
  fields: html`<input type="hidden" name="confirm" value="yes">${
    user.has_api_key
      ? html`<p><label><input type="checkbox" name="keep_webhooks" value="true"> ${t("api.keepWebhooks")}</label></p>`
      : ""
  }`
})}
<p><a href="/v2/api-docs#api-key">${t("api.confirmNo")}</a></p>`
)}`
  })
}

/** The page after a key rotation: the only time the key is ever shown; reloading it shows no key. */
export const newApiKeyPage = (ctx: PageContext, apiKey: string | null): Html => {
  const { t } = ctx.tr
  const body =
    apiKey === null
      ? html`<div class="card key-card"><p>${t("api.keyShownAlready")}</p>
<p><a class="btn btn-secondary" href="/v2/api-key/confirm">${t("api.rotate")}</a></p></div>`
      : html`<div class="card key-card"><p class="flash flash-error" role="alert">${t("api.newKeyOnce")}</p>
<p><code class="api-key" id="api-key">${apiKey}</code></p>
<p><button type="button" class="btn btn-primary" data-copy="${apiKey}" aria-describedby="api-key">${t("common.copy")}</button></p></div>`
  return layout(ctx, {
    title: t("api.newKeyTitle"),
    active: "api",
    body: html`<h1>${t("api.newKeyTitle")}</h1>
${body}
<p><a href="/v2/api-docs">← ${t("api.title")}</a></p>`
  })
}
