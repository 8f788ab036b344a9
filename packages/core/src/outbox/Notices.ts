import type { Notice } from "../ports/Notifier.ts"
import type { OutboxEvent } from "./OutboxEvent.ts"

/** What one outbox event says: the push notice and the bot text (title and body on two lines). */
export interface Rendered {
  readonly notice: Notice
  readonly text: string
}

const sum = (value: unknown): string =>
  typeof value === "number" && Number.isFinite(value)
    ? `${value.toString().replace(/\B(?=(\d{3})+(?!\d))/g, " ")} UZS`
    : "?"

const str = (value: unknown): string => (typeof value === "string" || typeof value === "number" ? String(value) : "")

const GOODS: Record<string, string> = { stars: "Telegram Stars", premium: "Telegram Premium", gift: "star gift" }

const make = (title: string, body: string, url: string, tag: string): Rendered => ({
  notice: { title, body, url, tag },
  text: `${title}\n${body}`
})

/** The user-facing (or operator-facing) wording of an event; English, short, no secrets. */
export const renderEvent = (event: OutboxEvent): Rendered => {
  const p = event.payload
  switch (event.kind) {
    case "order.completed":
      return make(
        `Order #${str(p["orderId"])} completed`,
        p["delivery"] === "paid_unconfirmed"
          ? `Your ${GOODS[str(p["kind"])] ?? "order"} for @${str(p["recipient"])} was sent: paid on chain` +
              `${str(p["fragmentRef"]) === "" ? "" : `, reference Ref#${str(p["fragmentRef"])}`}.`
          : `Your ${GOODS[str(p["kind"])] ?? "order"} for @${str(p["recipient"])} was delivered.`,
        "/v2/orders",
        `order-${str(p["orderId"])}`
      )
    case "order.failed":
      return make(
        `Order #${str(p["orderId"])} failed`,
        `Your ${GOODS[str(p["kind"])] ?? "order"} for @${str(p["recipient"])} could not be delivered. ` +
          `${sum(p["refundedUzs"])} went back to your balance.`,
        "/v2/orders",
        `order-${str(p["orderId"])}`
      )
    case "order.attention":
      return make(
        `Order #${str(p["orderId"])} needs attention`,
        `Delivery of ${GOODS[str(p["kind"])] ?? "an order"} for @${str(p["recipient"])} is still unknown after ` +
          `${str(p["checks"])} checks${str(p["ref"]) === "" ? "" : ` (Ref# ${str(p["ref"])})`}` +
          `${str(p["txHash"]) === "" ? "" : `, tx ${str(p["txHash"])}`}. Check again, complete or refund it.`,
        "/v2/admin/orders?status=needs_attention",
        `order-${str(p["orderId"])}`
      )
    case "topup.paid":
      return make(
        "Top-up credited",
        `${sum(p["amountUzs"])} added to your balance (now ${sum(p["balanceUzs"])}).`,
        "/v2/dashboard",
        `topup-${str(p["topupId"])}`
      )
    case "topup.rejected": {
      const note = str(p["note"]).trim()
      return make(
        "Top-up rejected",
        `Top-up #${str(p["topupId"])} of ${sum(p["amountUzs"])} was rejected${note === "" ? "." : `: ${note}`}`,
        "/v2/dashboard",
        `topup-${str(p["topupId"])}`
      )
    }
    case "topup.expired":
      return make(
        "Top-up expired",
        `Top-up #${str(p["topupId"])} of ${sum(p["amountUzs"])} expired without a payment.`,
        "/v2/dashboard",
        `topup-${str(p["topupId"])}`
      )
    case "topup.review":
      return make(
        "Receipt to review",
        `Top-up #${str(p["topupId"])} of ${sum(p["amountUzs"])} waits for approval.`,
        "/v2/admin/topups",
        `topup-${str(p["topupId"])}`
      )
    case "payment.unmatched":
      return make(
        "Payment not matched",
        `Incoming payment #${str(p["paymentId"])} of ${sum(p["amountUzs"])} matched ${str(p["candidates"])} top-ups.`,
        "/v2/admin/topups",
        `payment-${str(p["paymentId"])}`
      )
    case "ticket.answered":
      return make(
        "Support answered",
        `New reply in ticket #${str(p["ticketId"])}${str(p["subject"]) === "" ? "" : ` (${str(p["subject"])})`}.`,
        `/v2/tickets/${str(p["ticketId"])}`,
        `ticket-${str(p["ticketId"])}`
      )
    case "ticket.created":
      return make(
        "New ticket",
        `Ticket #${str(p["ticketId"])} was opened.`,
        "/v2/admin/tickets",
        `ticket-${str(p["ticketId"])}`
      )
    case "balance.adjusted":
      return make(
        "Balance adjusted",
        `${sum(p["amountUzs"])} (now ${sum(p["balanceUzs"])}).`,
        "/v2/dashboard",
        `balance-${event.id}`
      )
  }
}
