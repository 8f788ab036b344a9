import { AdminOrder, Order, Pricing, Ticket, TicketMessage, Timestamp, Topup, UserOut } from "./index.ts"
import type { WebhookEndpoint } from "@resale/core"
import { TIERS } from "@resale/core/accounts/Tiers.ts"
import { LedgerCause, type LedgerEntry } from "@resale/core/ledger/LedgerEntry.ts"
import type { Page, PageRequest } from "@resale/core/Page.ts"
import { TicketStatus } from "@resale/core/tickets/Ticket.ts"
import { Schema } from "effect"

/** Wire shapes of the /v2 answers (snake_case, like the original service); the records are `@resale/wire`'s. */
export {
  AdminOrder,
  AdminStatus,
  Order,
  OrderEvidence,
  Pricing,
  Ticket,
  TicketDetail,
  TicketMessage,
  Topup,
  UserOut
} from "./index.ts"

export const Balance = Schema.Struct({
  balance_uzs: Schema.Int,
  sandbox: Schema.Boolean
}).annotate({ identifier: "Balance" })

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

/** What the site says of itself on `/v2/` (the home page draws it too). */
export const homeOut = (
  site: { readonly sandbox: boolean; readonly botUsername: string | null; readonly publicUrl: string },
  signedIn: boolean
): typeof Home.Type => ({
  service: "resale",
  version: "0.1.0",
  sandbox: site.sandbox,
  signed_in: signedIn,
  bot_username: site.botUsername,
  sign_in_url: site.sandbox ? `${site.publicUrl}/v2/auth/sandbox` : null
})

/** The API page's data (`/v2/api-docs`): the info-lookup tiers and the signed-in user's, if any. */
export const apiDocsOut = (currentTier: number | null): typeof ApiDocs.Type => ({
  openapi_url: "/v2/openapi.json",
  tiers: Object.values(TIERS).map((t) => ({ tier: t.tier, daily_limit: t.dailyLookups, price_uzs: t.priceUzs })),
  current_tier: currentTier
})

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

export const AdminOrders = Schema.Struct({ orders: Schema.Array(AdminOrder), total: Schema.Int }).annotate({
  identifier: "AdminOrders"
})
export const LoginPage = Schema.Struct({ login: Schema.String, signed_in: Schema.Boolean }).annotate({
  identifier: "LoginPage"
})

/** A shopper's balance history (`GET /v2/balance/history`): ledger entries, newest first. */
export const HistoryEntry = Schema.Struct({
  entry_id: Schema.Int,
  amount_uzs: Schema.Int,
  cause: LedgerCause,
  cause_id: Schema.String,
  note: Schema.NullOr(Schema.String),
  balance_after_uzs: Schema.Int,
  created_at: Timestamp
}).annotate({ identifier: "HistoryEntry" })
export type HistoryEntry = typeof HistoryEntry.Type

export const HistoryPage = Schema.Struct({
  entries: Schema.Array(HistoryEntry),
  total: Schema.Int,
  offset: Schema.Int,
  limit: Schema.Int
}).annotate({ identifier: "HistoryPage" })
export type HistoryPage = typeof HistoryPage.Type

/** One page of a shopper's ledger entries as `GET /v2/balance/history` answers it and `/v2/history` draws it. */
export const historyPageOut = (found: Page<LedgerEntry>, page: PageRequest): HistoryPage => ({
  entries: found.items.map((e) => ({
    entry_id: e.id,
    amount_uzs: e.amount,
    cause: e.cause,
    cause_id: e.causeId,
    note: e.note,
    balance_after_uzs: e.balanceAfter,
    created_at: e.createdAt.toISOString()
  })),
  total: found.total,
  offset: page.offset,
  limit: page.limit
})

/** A shopper's webhook endpoint as `GET /v2/api-key/webhooks` lists it (the secret is never listed). */
export interface WebhookEndpointView {
  readonly id: number
  readonly url: string
  readonly events: ReadonlyArray<string>
  readonly created_at: string
}

export const webhookEndpointOut = (e: WebhookEndpoint): WebhookEndpointView => ({
  id: e.id,
  url: e.url,
  events: [...e.events],
  created_at: e.createdAt.toISOString()
})
