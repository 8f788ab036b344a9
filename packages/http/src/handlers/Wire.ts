// The record mappers are `@resale/wire`'s (the CLI prints the same shapes); the gift list is
// webkit's (the gifts page draws it too).
export { giftsOut } from "@resale/webkit/GiftCatalog.ts"
export { adminOrderOut, messageOut, orderOut, pricingOut, ticketOut, topupOut, userOut } from "@resale/wire"
