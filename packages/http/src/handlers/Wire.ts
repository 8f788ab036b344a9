import type { Prices, Topup } from "@resale/core"
import type * as Dto from "@resale/wire/Dtos.ts"
import type { CatalogGift } from "@resale/webkit/GiftCatalog.ts"

// The record mappers are `@resale/wire`'s (the CLI prints the same shapes); the gift list is the server's own.
import { topupOut } from "@resale/wire"
export { adminOrderOut, messageOut, orderOut, pricingOut, ticketOut, topupOut, userOut } from "@resale/wire"

/** A new top-up as both top-up routes answer it: the record, the exact amount to transfer and where. */
export const topupCreatedOut = (
  t: Topup,
  payToCard: string | null,
  sandbox: boolean
): typeof Dto.TopupCreated.Type => ({
  topup: topupOut(t),
  payable_uzs: t.payableUzs,
  expires_at: t.expiresAt === null ? null : t.expiresAt.toISOString(),
  pay_to_card: payToCard,
  sandbox
})

/** The gift list as clients see it: each gift priced in UZS from its stars at the current star price. */
export const giftsOut = (
  gifts: ReadonlyArray<CatalogGift>,
  prices: Prices,
  sandbox: boolean
): typeof Dto.Gifts.Type => ({
  gifts: gifts.map((g) => ({
    gift_id: g.id,
    title: g.title,
    stars: g.stars,
    price_uzs: g.stars * prices.starPriceUzs,
    remaining: g.remaining,
    picture_url: g.picture
  })),
  sandbox
})
