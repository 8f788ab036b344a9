import type { Prices } from "@resale/core"
import type * as Dto from "../api/Dtos.ts"
import type { CatalogGift } from "../gifts/GiftCatalog.ts"

// The record mappers are `@resale/wire`'s (the CLI prints the same shapes); the gift list is the server's own.
export { adminOrderOut, messageOut, orderOut, pricingOut, ticketOut, topupOut, userOut } from "@resale/wire"

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
