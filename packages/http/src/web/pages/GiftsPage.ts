import type * as Dto from "../../api/Dtos.ts"
import { type Html, html } from "../Html.ts"
import { field, formGuards, money, submit } from "../layout/Components.ts"
import { layout } from "../layout/Layout.ts"
import type { PageContext } from "../layout/PageContext.ts"

type Gift = typeof Dto.Gift.Type

/** One gift: its price in stars and so'm, and a form to send it. */
const giftCard = (ctx: PageContext, gift: Gift): Html => {
  const { t } = ctx.tr
  const id = `gift-${gift.gift_id}`
  return html`<li class="card gift" id="${id}" aria-labelledby="${id}-h">
<h2 id="${id}-h">${gift.title}</h2>
<p class="gift-price">${money(ctx.tr, gift.price_uzs)} <span class="hint">(${t("gift.stars", { n: gift.stars })}${
    gift.remaining === null ? "" : html`, ${t("gift.remaining", { n: gift.remaining })}`
  })</span></p>
<form method="post" action="/v2/gifts/buy">${formGuards(ctx, { idempotent: true })}
<input type="hidden" name="gift_id" value="${gift.gift_id}">
${field({ name: "username", id: `${id}-username`, label: t("gift.recipient"), required: true, autocomplete: "off", pattern: "@?[A-Za-z][A-Za-z0-9_]{3,31}", maxlength: 33 })}
${field({ name: "comment", id: `${id}-comment`, label: `${t("gift.comment")} (${t("common.optional")})`, maxlength: 255 })}
${submit(t("gift.send", { price: ctx.tr.uzs(gift.price_uzs) }))}</form>
</li>`
}

export const giftsPage = (ctx: PageContext, data: typeof Dto.Gifts.Type): Html => {
  const { t } = ctx.tr
  return layout(ctx, {
    title: t("gifts.title"),
    active: "gifts",
    body: html`<h1>${t("gifts.title")}</h1>
<p class="lead">${t("gifts.lead")}</p>
${data.gifts.length === 0 ? html`<p class="empty">${t("gifts.empty")}</p>` : html`<ul class="gifts">${data.gifts.map((g) => giftCard(ctx, g))}</ul>`}`
  })
}
