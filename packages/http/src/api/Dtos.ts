import { OrderDelivery, OrderKind, OrderStatus } from "@resale/core/orders/Order.ts"
import { OrderFailureCode } from "@resale/core/orders/OrderFailure.ts"
import { TicketStatus } from "@resale/core/tickets/Ticket.ts"
import { TopupMethod, TopupStatus as TopupState } from "@resale/core/topups/Topup.ts"
import { Schema } from "effect"

/** Wire shapes of the /v2 answers (snake_case, like the original service). */
const Timestamp = Schema.String.annotate({ description: "ISO 8601 instant" })

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

export const Balance = Schema.Struct({
  balance_uzs: Schema.Int,
  sandbox: Schema.Boolean
}).annotate({ identifier: "Balance" })

export const Topup = Schema.Struct({
  topup_id: Schema.Int,
  user_id: Schema.Int,
  method: TopupMethod,
  status: TopupState,
  amount_uzs: Schema.Int,
  payable_uzs: Schema.Int,
  credited_uzs: Schema.NullOr(Schema.Int),
  has_receipt: Schema.Boolean,
  admin_note: Schema.NullOr(Schema.String),
  expires_at: Schema.NullOr(Timestamp),
  created_at: Timestamp
}).annotate({ identifier: "Topup" })

export const TopupCreated = Schema.Struct({
  topup: Topup,
  /** The exact amount to transfer by card: the request plus a small unique offset. */
  payable_uzs: Schema.Int,
  expires_at: Schema.NullOr(Timestamp),
  pay_to_card: Schema.NullOr(Schema.String),
  sandbox: Schema.Boolean
}).annotate({ identifier: "TopupCreated" })

export const TopupStatus = Schema.Struct({
  balance_uzs: Schema.Int,
  topups: Schema.Array(Topup),
  sandbox: Schema.Boolean
}).annotate({ identifier: "TopupStatus" })

export const Order = Schema.Struct({
  order_id: Schema.Int,
  user_id: Schema.Int,
  kind: OrderKind,
  username: Schema.String,
  stars: Schema.NullOr(Schema.Int),
  months: Schema.NullOr(Schema.Int),
  gift_id: Schema.NullOr(Schema.String),
  price_uzs: Schema.Int,
  status: OrderStatus,
  tx_id: Schema.NullOr(Schema.String),
  error: Schema.NullOr(Schema.String),
  /**
   * Why the last attempt did not go through, stable for programs (null when `error` is null):
   * `recipient_not_found`, `already_premium`, `purchase_refused`, `gift_refused`, `gift_sold_out`,
   * `marketplace_timeout`, `service_unavailable`, `refunded_by_operator`, or `unknown`. `error` is the
   * text for people and may change.
   */
  error_code: Schema.NullOr(OrderFailureCode).annotate({
    description:
      "Why the last attempt did not go through, a stable code (null when `error` is null); switch on this, not on `error`'s text"
  }),
  /**
   * How a completed order's delivery is known (null until completed): `confirmed` when Fragment's
   * answer was about this order, `paid_unconfirmed` when it was settled on its own payment evidence
   * (on chain, with its Ref#) while Fragment never confirmed the delivery.
   */
  delivery: Schema.NullOr(OrderDelivery),
  created_at: Timestamp
}).annotate({ identifier: "Order" })

export const OrderCreated = Schema.Struct({
  ok: Schema.Boolean,
  order: Order,
  balance_uzs: Schema.Int,
  sandbox: Schema.Boolean
}).annotate({ identifier: "OrderCreated" })

export const OrdersPage = Schema.Struct({
  orders: Schema.Array(Order),
  total: Schema.Int,
  offset: Schema.Int,
  limit: Schema.Int
}).annotate({ identifier: "OrdersPage" })

export const Gift = Schema.Struct({
  gift_id: Schema.String,
  title: Schema.String,
  stars: Schema.Int,
  price_uzs: Schema.Int,
  remaining: Schema.NullOr(Schema.Int),
  /** The gift's picture (an https or data: image URL) when the gift sender provides one. */
  picture_url: Schema.NullOr(Schema.String)
}).annotate({ identifier: "Gift" })

export const Gifts = Schema.Struct({ gifts: Schema.Array(Gift), sandbox: Schema.Boolean }).annotate({
  identifier: "Gifts"
})

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
export const Tickets = Schema.Struct({ tickets: Schema.Array(Ticket), total: Schema.Int }).annotate({
  identifier: "Tickets"
})
export const TicketPoll = Schema.Struct({
  ticket_id: Schema.Int,
  status: TicketStatus,
  messages: Schema.Array(TicketMessage),
  /** Pass as `after` on the next poll. */
  cursor: Schema.Int
}).annotate({ identifier: "TicketPoll" })

export const ApiKey = Schema.Struct({
  /** Shown once; only its hash is stored. */
  api_key: Schema.String,
  prefix: Schema.String,
  /** Webhook endpoints removed with the old key (0 when `keep_webhooks` was true). */
  webhooks_removed: Schema.Int
}).annotate({ identifier: "ApiKey" })

export const Quota = Schema.Struct({ tier: Schema.Int, used: Schema.Int, limit: Schema.Int })
export const InfoLookup = Schema.Struct({
  username: Schema.String,
  found: Schema.Boolean,
  name: Schema.NullOr(Schema.String),
  photo_url: Schema.NullOr(Schema.String),
  quota: Quota,
  sandbox: Schema.Boolean
}).annotate({ identifier: "InfoLookup" })

export const TierUpgrade = Schema.Struct({
  tier: Schema.Int,
  price_uzs: Schema.Int,
  balance_uzs: Schema.Int,
  quota: Quota
}).annotate({ identifier: "TierUpgrade" })

export const IncomingPaymentResult = Schema.Struct({
  payment_id: Schema.Int,
  status: Schema.String,
  topup_id: Schema.NullOr(Schema.Int),
  duplicate: Schema.Boolean
}).annotate({ identifier: "IncomingPaymentResult" })

export const Ok = Schema.Struct({ ok: Schema.Boolean }).annotate({ identifier: "Ok" })

export const Home = Schema.Struct({
  service: Schema.String,
  version: Schema.String,
  sandbox: Schema.Boolean,
  signed_in: Schema.Boolean,
  bot_username: Schema.NullOr(Schema.String),
  sign_in_url: Schema.NullOr(Schema.String)
}).annotate({ identifier: "Home" })

export const Dashboard = Schema.Struct({
  user: UserOut,
  balance_uzs: Schema.Int,
  pricing: Pricing,
  topups: Schema.Array(Topup),
  orders: Schema.Array(Order),
  sandbox: Schema.Boolean
}).annotate({ identifier: "Dashboard" })

export const ApiDocs = Schema.Struct({
  openapi_url: Schema.String,
  tiers: Schema.Array(Schema.Struct({ tier: Schema.Int, daily_limit: Schema.Int, price_uzs: Schema.Int })),
  current_tier: Schema.NullOr(Schema.Int)
}).annotate({ identifier: "ApiDocs" })

export const AdminHome = Schema.Struct({
  pricing: Pricing,
  pending_topups: Schema.Int,
  review_topups: Schema.Int,
  open_tickets: Schema.Int,
  sandbox: Schema.Boolean
}).annotate({ identifier: "AdminHome" })

/** A top-up in the operator's list: a receipt in review names the credit it may repeat (approve needs confirm_duplicate). */
export const AdminTopup = Schema.Struct({
  ...Topup.fields,
  possible_duplicate_of: Schema.NullOr(Schema.Int),
  /** Why: the same receipt file, the same amount, or an amount within 1 % / 1,000 so'm of a recent credit. */
  possible_duplicate_reason: Schema.NullOr(Schema.Literals(["same_file", "same_amount", "near_amount"]))
}).annotate({
  identifier: "AdminTopup"
})
export const AdminTopups = Schema.Struct({ topups: Schema.Array(AdminTopup), total: Schema.Int }).annotate({
  identifier: "AdminTopups"
})
/** An order as operators see it: also how often fulfilment was tried and when it is tried next. */
/** What the worker's checks found out about an order whose delivery is unknown. */
export const OrderEvidence = Schema.Struct({
  tx_hash: Schema.NullOr(Schema.String),
  ref: Schema.NullOr(Schema.String),
  chain_state: Schema.NullOr(Schema.String),
  answers: Schema.Array(Schema.String)
}).annotate({ identifier: "OrderEvidence" })

export const AdminOrder = Schema.Struct({
  ...Order.fields,
  attempts: Schema.Int,
  next_attempt_at: Schema.NullOr(Timestamp),
  /** Checks with an unknown outcome in the current run, and since when (null: none). */
  unknown_checks: Schema.Int,
  unknown_since: Schema.NullOr(Timestamp),
  evidence: Schema.NullOr(OrderEvidence)
}).annotate({ identifier: "AdminOrder" })

export const AdminOrders = Schema.Struct({ orders: Schema.Array(AdminOrder), total: Schema.Int }).annotate({
  identifier: "AdminOrders"
})
export const LoginPage = Schema.Struct({ login: Schema.String, signed_in: Schema.Boolean }).annotate({
  identifier: "LoginPage"
})
