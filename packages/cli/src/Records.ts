import type { Order, Ticket, TicketMessage, Topup, User } from "@resale/core"
import { adminOrderOut, messageOut, ticketOut, topupOut, userOut } from "@resale/wire"

/**
 * The records `--json` prints: the API's shape of each (`@resale/wire`, the operators' one where the
 * admin API has it), then what only an operator on the server sees, in the same snake_case vocabulary.
 * A key the API answers is never renamed or dropped here (test/cli/vocabulary.test.ts compares them).
 */
const iso = (date: Date | null): string | null => (date === null ? null : date.toISOString())

/** `/v2/admin/orders`' order, plus the charge count, Fragment's or the gift sender's reference and the gift's details. */
export const orderJson = (o: Order) => ({
  ...adminOrderOut(o),
  charge_seq: o.chargeSeq,
  fragment_ref: o.fragmentRef,
  gift_ref: o.giftRef,
  gift:
    o.item.kind === "gift"
      ? {
          stars: o.item.giftStars,
          comment: o.item.comment,
          sender_account: o.item.senderAccount,
          anonymous: o.item.anonymous
        }
      : null,
  updated_at: o.updatedAt.toISOString(),
  completed_at: iso(o.completedAt)
})

/** The API's top-up, plus how it was confirmed, the bank payment it matched and its receipt file. */
export const topupJson = (t: Topup) => ({
  ...topupOut(t),
  confirmed_by: t.confirmedBy,
  payment_id: t.paymentId,
  receipt:
    t.receipt === null ? null : { content_type: t.receipt.contentType, size: t.receipt.size, sha256: t.receipt.sha256 },
  updated_at: t.updatedAt.toISOString()
})

export const ticketJson = (t: Ticket) => ticketOut(t)

/** The API's ticket message, plus its ticket (an answer is printed on its own). */
export const messageJson = (m: TicketMessage) => ({ ...messageOut(m), ticket_id: m.ticketId })

/** The API's user, plus when the account was made. */
export const userJson = (u: User) => ({ ...userOut(u), created_at: u.createdAt.toISOString() })
