import {
  failureCode,
  type Order,
  type Prices,
  type Ticket,
  type TicketMessage,
  type Topup,
  type User
} from "@resale/core"
import type * as Records from "./Records.ts"

/** Domain records to their snake_case wire shapes: pure, shared by the /v2 handlers and the CLI. */
const iso = (date: Date | null): string | null => (date === null ? null : date.toISOString())

export const topupOut = (t: Topup): typeof Records.Topup.Type => ({
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

export const orderOut = (o: Order): typeof Records.Order.Type => {
  const duration = o.item.kind === "premium" ? o.item.months : null
  return {
    order_id: o.id,
    user_id: o.userId,
    kind: o.item.kind,
    username: o.recipient,
    stars: o.item.kind === "stars" ? o.item.stars : null,
    duration,
    months: duration,
    gift_id: o.item.kind === "gift" ? o.item.giftId : null,
    price_uzs: o.priceUzs,
    status: o.status,
    tx_id: o.txId,
    error: o.lastError,
    error_code: failureCode(o.lastError),
    delivery: o.delivery,
    fragment_ref: o.fragmentRef,
    created_at: o.createdAt.toISOString()
  }
}

/** The admin order list: the order plus its fulfilment attempts and next try (the error is `error`). */
export const adminOrderOut = (o: Order): typeof Records.AdminOrder.Type => ({
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

export const pricingOut = (p: Prices, sandbox: boolean): typeof Records.Pricing.Type => ({
  star_price_uzs: p.starPriceUzs,
  premium_3_month_uzs: p.premium3MonthUzs,
  premium_6_month_uzs: p.premium6MonthUzs,
  premium_12_month_uzs: p.premium12MonthUzs,
  sandbox
})

export const userOut = (u: User): typeof Records.UserOut.Type => ({
  user_id: u.id,
  telegram_id: u.telegramId,
  username: u.username,
  first_name: u.firstName,
  tier: u.tier,
  has_api_key: u.hasApiKey,
  bot_linked: u.botChatId !== null
})

export const ticketOut = (t: Ticket): typeof Records.Ticket.Type => ({
  ticket_id: t.id,
  user_id: t.userId,
  subject: t.subject,
  status: t.status,
  last_author: t.lastAuthor,
  created_at: t.createdAt.toISOString(),
  updated_at: t.updatedAt.toISOString()
})

export const messageOut = (m: TicketMessage): typeof Records.TicketMessage.Type => ({
  message_id: m.id,
  author: m.author,
  body: m.body,
  created_at: m.createdAt.toISOString()
})
