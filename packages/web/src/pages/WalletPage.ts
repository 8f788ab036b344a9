/**
 * The wallet road for people: buy Stars or Premium for any username and pay from one's own TON wallet
 * by a `ton://transfer` link or its QR code (the wallet signs; no phrase is ever asked for), then
 * watch the order to delivery. In sandbox mode a wallet the server signs for walks the same road.
 */
import { randomUUID } from "node:crypto"
import { formatTon } from "@resale/core/money/Nanoton.ts"
import type { WalletQuote } from "@resale/core/ports/WalletQuotes.ts"
import { type Html, html, unsafeRaw } from "../Html.ts"
import type { MessageKey } from "../i18n/en.ts"
import { field, formGuards, section, select, submit, time } from "../layout/Components.ts"
import { layout } from "../layout/Layout.ts"
import type { PageContext } from "../layout/PageContext.ts"
import { qrSvg, tonTransferLink } from "./TonTransfer.ts"

/** The buy form: what, for whom, and the paying wallet (with why it is asked for). */
export const walletPage = (ctx: PageContext): Html => {
  const { t } = ctx.tr
  // A fresh order id per form: a double-submitted form gets the same quote, not a second invoice.
  const guards = html`${formGuards(ctx)}<input type="hidden" name="order_id" value="web-${randomUUID()}">`
  const sandboxButton = ctx.sandbox
    ? html`<p class="hint">${t("wallet.sandboxHint")}</p><button type="submit" name="sandbox_wallet" value="1" class="btn btn-secondary" formnovalidate>${t(
        "wallet.sandboxQuote"
      )}</button>`
    : ""
  const form = html`<form method="post" action="/v2/wallet/quote" class="stack-form">${guards}${select({
    name: "kind",
    label: t("wallet.kind"),
    options: [
      { value: "stars", label: t("kind.stars"), selected: true },
      { value: "premium", label: t("kind.premium") }
    ]
  })}${field({ name: "username", label: t("wallet.username"), required: true, maxlength: 33, autocomplete: "off", hint: t("wallet.usernameHint") })}${field(
    {
      name: "amount",
      label: t("wallet.amount"),
      type: "number",
      required: true,
      min: 3,
      max: 1_000_000,
      inputmode: "numeric",
      value: 50
    }
  )}${field({ name: "address", label: t("wallet.address"), required: true, autocomplete: "off", maxlength: 100, hint: t("wallet.addressHint") })}${submit(
    t("wallet.quote")
  )}${sandboxButton}</form>`
  return layout(ctx, {
    title: t("wallet.title"),
    active: "none",
    body: html`<h1>${t("wallet.title")}</h1>
<p class="lead">${t("wallet.lead")}</p>
${section("buy", t("wallet.buy"), form)}`
  })
}

export interface WalletOrderView {
  readonly quote: WalletQuote
  /** The address as the page was asked with, for its links. */
  readonly address: string
  /** Sandbox mode: the sandbox wallet that pays this order, when it is one. */
  readonly sandboxWallet: string | undefined
}

const FINAL = ["delivered", "paid_unconfirmed", "expired", "failed"]

const what = (ctx: PageContext, q: WalletQuote): string =>
  ctx.tr.t(q.kind === "premium" ? "wallet.what.premium" : "wallet.what.stars", {
    n: q.units ?? 0,
    username: q.recipient
  })

/** The ways to pay an open quote: the link, its QR code and, in sandbox, the sandbox wallet's button. */
const payment = (ctx: PageContext, view: WalletOrderView): Html => {
  const { t } = ctx.tr
  const link = tonTransferLink(view.quote)
  const sandbox =
    ctx.sandbox && view.sandboxWallet !== undefined
      ? html`<form method="post" action="/v2/wallet/sandbox-pay">${formGuards(ctx)}<input type="hidden" name="address" value="${view.address}"><input type="hidden" name="order_id" value="${view.quote.orderId}"><input type="hidden" name="wallet" value="${view.sandboxWallet}">${submit(
          t("wallet.sandboxPay")
        )}</form>`
      : ""
  return html`<p>${t("wallet.payLead")}</p>
<p><a class="btn btn-primary" id="ton-link" href="${link}">${t("wallet.open")}</a></p>
<div class="qr" role="img" aria-label="${t("wallet.qr")}">${unsafeRaw(qrSvg(link))}</div>
<p class="hint"><code class="wrap">${link}</code></p>
${sandbox}`
}

export const walletOrderPage = (ctx: PageContext, view: WalletOrderView): Html => {
  const { t } = ctx.tr
  const q = view.quote
  const final = FINAL.includes(q.state)
  const row = (label: string, value: Html | string) => html`<div><dt>${label}</dt><dd>${value}</dd></div>`
  const facts = html`<dl class="facts">${row(t("wallet.orderId"), html`<code>${q.orderId}</code>`)}${row(
    t("wallet.cost"),
    `${formatTon(q.payAmount)} TON`
  )}${row(t("wallet.from"), html`<code class="wrap">${q.walletAddress}</code>`)}${
    final ? "" : row(t("wallet.until"), time(new Date(q.validUntil * 1000).toISOString()))
  }</dl>`
  const state = html`<p class="wallet-state state-${q.state}" id="wallet-state" data-state="${q.state}" role="status"${
    final ? "" : html` data-wallet-follow`
  }>${t(`wallet.state.${q.state}` as MessageKey)}</p>${final ? html`<p><a href="/v2/wallet">${t("wallet.again")}</a></p>` : html`<p class="hint">${t("wallet.follow")}</p>`}`
  return layout(ctx, {
    title: t("wallet.order"),
    active: "none",
    body: html`<h1>${t("wallet.order")}</h1>
<p class="lead">${what(ctx, q)}</p>
${section("order", t("common.status"), html`${state}${facts}`)}
${q.state === "awaiting_payment" && q.boc === null ? section("pay", t("wallet.pay"), payment(ctx, view)) : ""}`
  })
}
