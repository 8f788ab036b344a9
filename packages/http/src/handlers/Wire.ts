import type { Topup } from "@resale/core"
import type * as Dto from "@resale/wire/Dtos.ts"

// The record mappers are `@resale/wire`'s (the CLI prints the same shapes); the gift list is
// webkit's (the gifts page draws it too).
export { giftsOut } from "@resale/webkit/GiftCatalog.ts"
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
