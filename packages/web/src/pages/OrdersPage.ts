import type * as Dto from "@resale/wire/Dtos.ts"
import { type Html, html } from "../Html.ts"
import { pagination } from "../layout/Components.ts"
import { layout } from "../layout/Layout.ts"
import type { PageContext } from "../layout/PageContext.ts"
import { type GiftTitles, ordersTable } from "./OrderViews.ts"

export interface OrdersData {
  readonly page: typeof Dto.OrdersPage.Type
  readonly gifts: GiftTitles
}

/** The shopper's orders, newest first, a page at a time; open orders update live. */
export const ordersPage = (ctx: PageContext, data: OrdersData): Html => {
  const { t } = ctx.tr
  const { offset, limit, total, orders } = data.page
  return layout(ctx, {
    title: t("orders.title"),
    active: "orders",
    body: html`<h1>${t("orders.title")}</h1>
<p class="hint">${t("common.live")}</p>
${ordersTable(ctx.tr, orders, data.gifts, { explorer: ctx.explorer })}
${pagination(ctx.tr, "/v2/orders", offset, limit, total)}`,
    data: { ordersPoll: `/v2/orders/list?offset=${offset}&limit=${limit}`, explorer: ctx.explorer ?? null }
  })
}
