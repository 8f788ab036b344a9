import type * as Dto from "@resale/wire/Dtos.ts"
import { type Html, html } from "../Html.ts"
import { money, section } from "../layout/Components.ts"
import { layout } from "../layout/Layout.ts"
import type { PageContext } from "../layout/PageContext.ts"

export interface HomeData {
  readonly home: typeof Dto.Home.Type
  readonly pricing: typeof Dto.Pricing.Type
  /** Where the Telegram Login Widget sends the signed data (absolute URL). */
  readonly authUrl: string
}

const STAR_EXAMPLES = [50, 100, 500, 1000] as const

export const pricesList = (ctx: PageContext, pricing: typeof Dto.Pricing.Type): Html => {
  const { t } = ctx.tr
  const row = (label: string, amount: number) =>
    html`<div class="price"><dt>${label}</dt><dd>${money(ctx.tr, amount)}</dd></div>`
  return html`<dl class="prices">${row(t("price.star"), pricing.star_price_uzs)}${STAR_EXAMPLES.map((n) =>
    row(t("price.stars", { n }), n * pricing.star_price_uzs)
  )}${row(t("price.premium", { n: 3 }), pricing.premium_3_month_uzs)}${row(t("price.premium", { n: 6 }), pricing.premium_6_month_uzs)}${row(
    t("price.premium", { n: 12 }),
    pricing.premium_12_month_uzs
  )}</dl>`
}

const signIn = (ctx: PageContext, data: HomeData): Html => {
  const { t } = ctx.tr
  if (data.home.signed_in) {
    return html`<p><a class="btn btn-primary" href="/v2/dashboard">${t("home.openDashboard")}</a></p>`
  }
  // The widget is Telegram's own script: it draws the button and redirects to authUrl with the signed fields.
  const widget = data.home.bot_username
    ? html`<div class="tg-login"><script async src="https://telegram.org/js/telegram-widget.js?22" data-telegram-login="${data.home.bot_username}" data-size="large" data-radius="8" data-auth-url="${data.authUrl}" data-request-access="write" data-lang="${ctx.tr.locale}"></script></div>`
    : data.home.sandbox
      ? html``
      : html`<p>${t("home.widgetMissing")}</p>`
  // Sandbox: sign in as any made-up name, so several demo shoppers can be tried side by side.
  const sandbox = data.home.sign_in_url
    ? html`<form method="get" action="/v2/auth/sandbox" class="card narrow sandbox-sign-in">
<div class="field"><label for="sandbox-user">${t("home.sandboxName")}</label><input id="sandbox-user" name="user" value="demo" maxlength="32" pattern="[A-Za-z0-9_]{1,32}" autocomplete="off"></div>
<button type="submit" class="btn btn-secondary" id="sandbox-sign-in">${t("home.sandboxSignIn")}</button></form>`
    : html``
  return html`${widget}${sandbox}<p class="hint">${t("home.signInHint")}</p>`
}

export const homePage = (ctx: PageContext, data: HomeData): Html => {
  const { t } = ctx.tr
  return layout(ctx, {
    title: t("home.title"),
    active: "home",
    body: html`<section class="hero" aria-labelledby="home-title">
<h1 id="home-title">${t("home.title")}</h1>
<p class="lead">${t("home.lead")}</p>
<ol class="steps"><li>${t("home.step1")}</li><li>${t("home.step2")}</li><li>${t("home.step3")}</li></ol>
${signIn(ctx, data)}
<p><a href="/v2/wallet" id="wallet-link">${t("wallet.link")}</a></p>
</section>
${section("prices", t("home.prices"), pricesList(ctx, data.pricing))}`
  })
}
