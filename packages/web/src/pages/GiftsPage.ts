import type * as Dto from "@resale/wire/Dtos.ts"
import { type Html, html } from "../Html.ts"
import { giftName } from "../i18n/GiftNames.ts"
import { field, formGuards, money, section, submit } from "../layout/Components.ts"
import { layout } from "../layout/Layout.ts"
import type { PageContext } from "../layout/PageContext.ts"

type Gift = typeof Dto.Gift.Type

/** A generic gift box, for gifts whose sender gives no picture. */
const FALLBACK_PICTURE = "/v2/static/icon.svg"

/**
 * The picture's address on the page: one this service serves itself (fetched from Telegram) as a
 * path, so it loads from whatever address the shopper opened (the page allows only its own images).
 */
export const pictureSrc = (url: string | null): string =>
  url === null ? FALLBACK_PICTURE : url.replace(/^https?:\/\/[^/]+(?=\/v2\/gift-pictures\/\d+$)/, "")

/** One choice of the picker: a radio with the gift's picture, name and price as its label. */
const giftChoice = (ctx: PageContext, gift: Gift, first: boolean): Html => {
  const { t } = ctx.tr
  const id = `gift-${gift.gift_id}`
  const name = giftName(ctx.tr.locale, gift.gift_id, gift.title)
  return html`<li class="gift" data-gift-id="${gift.gift_id}"><input type="radio" class="gift-radio" name="gift_id" id="${id}" value="${gift.gift_id}"${
    first ? html` checked` : ""
  } required><label for="${id}"><img class="gift-picture" src="${pictureSrc(gift.picture_url)}" alt="" width="64" height="64" loading="lazy"><span class="gift-name">${name}</span><span class="gift-price">${money(
    ctx.tr,
    gift.price_uzs
  )}</span><span class="hint">${t("gift.stars", { n: gift.stars })}${
    gift.remaining === null ? "" : html`, ${t("gift.remaining", { n: gift.remaining })}`
  }</span></label></li>`
}

/** The gifts on sale as one form: pick a gift, then say who gets it (no script needed). */
export const giftsPage = (ctx: PageContext, data: typeof Dto.Gifts.Type): Html => {
  const { t } = ctx.tr
  const form = html`<form method="post" action="/v2/gifts/buy">${formGuards(ctx, { idempotent: true })}
<fieldset class="gift-picker"><legend>${t("gift.choose")}</legend>
<ul class="gifts">${data.gifts.map((g, i) => giftChoice(ctx, g, i === 0))}</ul></fieldset>
${field({ name: "username", id: "gift-username", label: t("gift.recipient"), required: true, autocomplete: "off", pattern: "@?[A-Za-z][A-Za-z0-9_]{3,31}", maxlength: 33 })}
${field({ name: "comment", id: "gift-comment", label: `${t("gift.comment")} (${t("common.optional")})`, maxlength: 255 })}
${submit(t("gift.sendChosen"))}</form>`
  return layout(ctx, {
    title: t("gifts.title"),
    active: "gifts",
    body: html`<h1>${t("gifts.title")}</h1>
<p class="lead">${t("gifts.lead")}</p>
${data.gifts.length === 0 ? html`<p class="empty">${t("gifts.empty")}</p>` : section("send-gift", t("gift.form"), form)}`
  })
}
