import type { OrderFailureCode } from "@resale/core/orders/OrderFailure.ts"
import type * as Dto from "@resale/wire/Dtos.ts"
import { giftName } from "../i18n/GiftNames.ts"
import { type Html, html } from "../Html.ts"
import type { Translator } from "../i18n/Translate.ts"
import { money, statusBadge, table, time } from "../layout/Components.ts"

type Order = typeof Dto.Order.Type
type Topup = typeof Dto.Topup.Type

/** Gift titles by id, to name a gift order. */
export type GiftTitles = Readonly<Record<string, string>>

/** What an order bought, in words: "50 stars", "Premium, 6 months", "Gift Rose". */
export const orderItem = (tr: Translator, order: Order, gifts: GiftTitles): string => {
  if (order.kind === "stars") return tr.t("order.stars", { n: order.stars ?? 0 })
  if (order.kind === "premium") return tr.t("order.premium", { n: order.duration ?? 0 })
  return tr.t("order.gift", { name: giftName(tr.locale, order.gift_id ?? "?", gifts[order.gift_id ?? ""]) })
}

/**
 * The status an order is shown to operators with: a completed order settled on its own payment
 * evidence, which Fragment never confirmed, shows as "paid, delivery not confirmed by Fragment".
 * Shoppers see it completed, sent with its on-chain reference (`reason` below).
 */
export const shownStatus = (order: Pick<Order, "status" | "delivery">): string =>
  order.status === "completed" && order.delivery === "paid_unconfirmed" ? "paid_unconfirmed" : order.status

/** A TON transaction hash as the hot wallet's payments carry (an operator's mark-done reference is not one). */
const TX_HASH = /^[0-9a-f]{64}$/i

/** The payment's page on a public TON explorer (`explorer`: its base URL; none in sandbox), if the tx is one. */
export const paymentUrl = (explorer: string | null | undefined, txId: string | null): string | null =>
  explorer && txId && TX_HASH.test(txId) ? `${explorer}/transaction/${txId.toLowerCase()}` : null

/** "14:05" in Tashkent time (UTC+5, no daylight saving). */
export const clock = (iso: string): string => new Date(Date.parse(iso) + 5 * 3600_000).toISOString().slice(11, 16)

/** The dictionary key of a failure code's sentence: a code without a sentence does not compile. */
export const failureKey = (code: OrderFailureCode): `orders.failure.${OrderFailureCode}` => `orders.failure.${code}`

/**
 * The reason under the status, always in the shopper's words (the technical error is the operators'):
 * a failed order says what happened, that it was refunded and what to do, chosen by its `error_code`;
 * a queued order that an attempt already missed (nothing was paid) says it is tried again; a completed
 * one links its payment and, when Fragment never confirmed it, says it was sent, paid on chain, with its Ref#.
 */
const reason = (tr: Translator, order: Order, explorer: string | null | undefined): Html => {
  if (order.status === "queued" && order.error) {
    return html`<span class="reason" data-order-reason><span data-order-retry>${tr.t("orders.retrying")}</span></span>`
  }
  if (order.status === "completed") {
    // Paid on chain to Fragment with its Ref#, Fragment accepted the payment: sent, whatever Fragment's page said after.
    const sent =
      order.delivery === "paid_unconfirmed"
        ? html`<span data-order-sent>${tr.t("orders.sentOnChain", { ref: order.fragment_ref ?? "—" })}</span> `
        : ""
    const url = paymentUrl(explorer, order.tx_id)
    const link =
      url === null ? "" : html`<a href="${url}" data-order-payment rel="noopener">${tr.t("orders.viewPayment")}</a>`
    return html`<span class="reason" data-order-reason data-order-failure="">${sent}${link}</span>`
  }
  const failed = order.status === "failed" ? tr.t(failureKey(order.error_code ?? "unknown")) : ""
  return html`<span class="reason" data-order-reason data-order-failure="${order.error_code ?? ""}">${failed}</span>`
}

/** The shopper's orders; rows carry `data-order-id` so the client script can update their status live. */
export const ordersTable = (
  tr: Translator,
  orders: ReadonlyArray<Order>,
  gifts: GiftTitles,
  options: { readonly id?: string; readonly explorer?: string | null | undefined } = {}
): Html =>
  table({
    id: options.id ?? "orders-table",
    caption: tr.t("orders.title"),
    headers: [
      tr.t("orders.order"),
      tr.t("orders.item"),
      tr.t("orders.recipient"),
      tr.t("orders.price"),
      tr.t("common.status"),
      tr.t("common.date")
    ],
    empty: tr.t("orders.empty"),
    rows: orders.map((o) => ({
      attrs: html` data-order-id="${o.order_id}"`,
      cells: [
        `#${o.order_id}`,
        orderItem(tr, o, gifts),
        `@${o.username}`,
        money(tr, o.price_uzs),
        html`${statusBadge(tr, "order", o.status)}${reason(tr, o, options.explorer)}`,
        time(o.created_at)
      ]
    }))
  })

export const topupsTable = (tr: Translator, topups: ReadonlyArray<Topup>): Html =>
  table({
    id: "topups-table",
    caption: tr.t("dash.topups"),
    headers: ["#", tr.t("admin.method"), tr.t("common.amount"), tr.t("common.status"), tr.t("common.date")],
    empty: tr.t("common.none"),
    rows: topups.map((tp) => ({
      attrs: html` data-topup-row="${tp.topup_id}"`,
      cells: [
        `#${tp.topup_id}`,
        tr.t(tp.method === "receipt" ? "method.receipt" : "method.card"),
        money(tr, tp.credited_uzs ?? tp.payable_uzs),
        // A refusal carries the operator's reason: the shopper sees why.
        html`${statusBadge(tr, "topup", tp.status)}${
          tp.status === "rejected" && tp.admin_note
            ? html`<p class="reason">${tr.t("history.reason", { reason: tp.admin_note })}</p>`
            : ""
        }`,
        time(tp.created_at)
      ]
    }))
  })
