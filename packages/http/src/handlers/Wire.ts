import type { Order, Prices, Ticket, TicketMessage, Topup, User } from "@resale/core"
import type * as Dto from "../api/Dtos.ts"
import type { CatalogGift } from "../gifts/GiftCatalog.ts"

/** Domain records to the snake_case wire shapes of the /v2 answers. */
const iso = (date: Date | null): string | null => (date === null ? null : date.toISOString())

export const topupOut = (t: Topup): typeof Dto.Topup.Type => ({
  topup_id: t.id,
  user_id: t.userId,
  method: t.method,
  status: t.status,
  amount_uzs: t.requestedUzs,
  payable_uzs: t.payableUzs,
  credited_uzs: t.creditedUzs,
  has_receipt: t.receipt !== null,
  admin_note: t.adminNote,
  expires_at: iso(t.expiresAt),
  created_at: t.createdAt.toISOString()
})

/** A new top-up as both top-up routes answer it: the record, the exact amount to transfer and where. */
export const topupCreatedOut = (
  t: Topup,
  payToCard: string | null,
  sandbox: boolean
): typeof Dto.TopupCreated.Type => ({
  topup: topupOut(t),
  payable_uzs: t.payableUzs,
  expires_at: iso(t.expiresAt),
  pay_to_card: payToCard,
  sandbox
})

export const orderOut = (o: Order): typeof Dto.Order.Type => ({
  order_id: o.id,
  user_id: o.userId,
  kind: o.item.kind,
  username: o.recipient,
  stars: o.item.kind === "stars" ? o.item.stars : null,
  months: o.item.kind === "premium" ? o.item.months : null,
  gift_id: o.item.kind === "gift" ? o.item.giftId : null,
  price_uzs: o.priceUzs,
  status: o.status,
  tx_id: o.txId,
  error: o.lastError,
  delivery: o.delivery,
  created_at: o.createdAt.toISOString()
})

/** The admin order list: the order plus its fulfilment attempts and next try (the error is `error`). */
export const adminOrderOut = (o: Order): typeof Dto.AdminOrder.Type => ({
  ...orderOut(o),
  attempts: o.attempts,
  next_attempt_at: iso(o.nextAttemptAt),
  unknown_checks: o.unknownAttempts,
  unknown_since: iso(o.unknownSince),
  evidence:
    o.evidence === null
      ? null
      : {
          tx_hash: o.evidence.txHash,
          ref: o.evidence.ref,
          chain_state: o.evidence.chainState,
          answers: o.evidence.answers
        }
})

export const pricingOut = (p: Prices, sandbox: boolean): typeof Dto.Pricing.Type => ({
  star_price_uzs: p.starPriceUzs,
  premium_3_month_uzs: p.premium3MonthUzs,
  premium_6_month_uzs: p.premium6MonthUzs,
  premium_12_month_uzs: p.premium12MonthUzs,
  sandbox
})

export const userOut = (u: User): typeof Dto.UserOut.Type => ({
  user_id: u.id,
  telegram_id: u.telegramId,
  username: u.username,
  first_name: u.firstName,
  tier: u.tier,
  has_api_key: u.hasApiKey,
  bot_linked: u.botChatId !== null
})

export const ticketOut = (t: Ticket): typeof Dto.Ticket.Type => ({
  ticket_id: t.id,
  user_id: t.userId,
  subject: t.subject,
  status: t.status,
  last_author: t.lastAuthor,
  created_at: t.createdAt.toISOString(),
  updated_at: t.updatedAt.toISOString()
})

export const messageOut = (m: TicketMessage): typeof Dto.TicketMessage.Type => ({
  message_id: m.id,
  author: m.author,
  body: m.body,
  created_at: m.createdAt.toISOString()
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
