import { OrderDelivery, OrderKind, OrderStatus } from "@resale/core/orders/Order.ts"
import { OrderFailureCode } from "@resale/core/orders/OrderFailure.ts"
import { TicketStatus } from "@resale/core/tickets/Ticket.ts"
import { TopupMethod, TopupStatus } from "@resale/core/topups/Topup.ts"
import { Schema } from "effect"

/**
 * The snake_case shapes of the product's records, as the /v2 answers carry them and `resale ... --json`
 * prints them: one vocabulary, declared once, for the HttpApi contract and the CLI alike.
 */
export const Timestamp = Schema.String.annotate({ description: "ISO 8601 instant" })

export const Pricing = Schema.Struct({
  star_price_uzs: Schema.Int,
  premium_3_month_uzs: Schema.Int,
  premium_6_month_uzs: Schema.Int,
  premium_12_month_uzs: Schema.Int,
  sandbox: Schema.Boolean
}).annotate({ identifier: "Pricing" })

export const UserOut = Schema.Struct({
  user_id: Schema.Int,
  telegram_id: Schema.Int,
  username: Schema.NullOr(Schema.String),
  first_name: Schema.NullOr(Schema.String),
  tier: Schema.Int,
  has_api_key: Schema.Boolean,
  bot_linked: Schema.Boolean
}).annotate({ identifier: "User" })

export const Topup = Schema.Struct({
  topup_id: Schema.Int,
  user_id: Schema.Int,
  method: TopupMethod,
  status: TopupStatus,
  amount_uzs: Schema.Int,
  payable_uzs: Schema.Int,
  credited_uzs: Schema.NullOr(Schema.Int),
  has_receipt: Schema.Boolean,
  admin_note: Schema.NullOr(Schema.String),
  expires_at: Schema.NullOr(Timestamp),
  created_at: Timestamp
}).annotate({ identifier: "Topup" })

export const Order = Schema.Struct({
  order_id: Schema.Int,
  user_id: Schema.Int,
  kind: OrderKind,
  username: Schema.String,
  stars: Schema.NullOr(Schema.Int),
  duration: Schema.NullOr(Schema.Int).annotate({
    description: "Premium: the months bought (3, 6 or 12), the `duration` of the request; null for other kinds."
  }),
  // Answers said `months` before they said `duration`; kept so that existing clients keep reading it.
  months: Schema.NullOr(Schema.Int).annotate({
    description: "Deprecated: use duration. The same value, kept for clients written before it."
  }),
  gift_id: Schema.NullOr(Schema.String),
  price_uzs: Schema.Int,
  status: OrderStatus,
  tx_id: Schema.NullOr(Schema.String),
  error: Schema.NullOr(Schema.String),
  error_code: Schema.NullOr(OrderFailureCode).annotate({
    description:
      "Why the last attempt did not go through, a stable code (null when `error` is null): recipient_not_found, " +
      "already_premium, purchase_refused, gift_refused, gift_sold_out, marketplace_timeout, service_unavailable, " +
      "refunded_by_operator or unknown; switch on this, not on `error`'s text"
  }),
  /**
   * How a completed order's delivery is known (null until completed): `confirmed` when Fragment's
   * answer was about this order, `paid_unconfirmed` when it was settled on its own payment evidence
   * (on chain, with its Ref#) while Fragment never confirmed the delivery.
   */
  delivery: Schema.NullOr(OrderDelivery),
  fragment_ref: Schema.NullOr(Schema.String).annotate({
    description:
      "Stars and Premium: Fragment's reference of the purchase (the `Ref#` in the payment's comment), once paid; " +
      "with `tx_id`, the on-chain proof of a completed order whatever its `delivery`. Null for gifts and before payment."
  }),
  created_at: Timestamp
}).annotate({ identifier: "Order" })

/** What the worker's checks found out about an order whose delivery is unknown. */
export const OrderEvidence = Schema.Struct({
  tx_hash: Schema.NullOr(Schema.String),
  ref: Schema.NullOr(Schema.String),
  chain_state: Schema.NullOr(Schema.String),
  answers: Schema.Array(Schema.String)
}).annotate({ identifier: "OrderEvidence" })

/** An order as operators see it: also how often fulfilment was tried and when it is tried next. */
export const AdminOrder = Schema.Struct({
  ...Order.fields,
  attempts: Schema.Int,
  next_attempt_at: Schema.NullOr(Timestamp),
  /** Checks with an unknown outcome in the current run, and since when (null: none). */
  unknown_checks: Schema.Int,
  unknown_since: Schema.NullOr(Timestamp),
  evidence: Schema.NullOr(OrderEvidence)
}).annotate({ identifier: "AdminOrder" })

export const TicketMessage = Schema.Struct({
  message_id: Schema.Int,
  author: Schema.String,
  body: Schema.String,
  created_at: Timestamp
}).annotate({ identifier: "TicketMessage" })

export const Ticket = Schema.Struct({
  ticket_id: Schema.Int,
  user_id: Schema.Int,
  subject: Schema.String,
  status: TicketStatus,
  last_author: Schema.String,
  created_at: Timestamp,
  updated_at: Timestamp
}).annotate({ identifier: "Ticket" })

export const TicketDetail = Schema.Struct({ ticket: Ticket, messages: Schema.Array(TicketMessage) }).annotate({
  identifier: "TicketDetail"
})
