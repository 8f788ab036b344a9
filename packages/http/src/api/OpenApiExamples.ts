/**
 * One example of every request and response body of /v2: by component schema name (set as the
 * schema's `examples`), the inline request bodies by operationId, pages and files by media type.
 * The linter validates each against its schema with no undeclared field allowed (`redocly.yaml`),
 * and the contract test checks that no body is left without one, so examples cannot drift.
 */
import {
  adminOrder,
  adminReceipt,
  AT,
  evidence,
  LATER,
  message,
  order,
  paid,
  pricing,
  queued,
  quota,
  ticket,
  topup,
  user,
  webhook
} from "./OpenApiExampleRecords.ts"

type Json = Record<string, unknown>

/** Every error body carries the request's id (the `X-Request-Id` it was answered with). */
const REQUEST_ID = "8f2c41d0-5b7e-4c1a-9d3f-2e6a7b8c9d01"
const coded = (detail: string, code: string, params?: Json): Json => ({
  detail,
  code,
  ...(params ? { params } : {}),
  request_id: REQUEST_ID
})

export const SCHEMA_EXAMPLES: Record<string, unknown> = {
  // Errors, one typical code per status.
  BadRequestEncoded: coded("amount must be a whole number of at least 50 stars", "stars_amount_too_small"),
  UnauthorizedEncoded: coded("Missing X-API-Key header", "api_key_missing"),
  ForbiddenEncoded: coded("Cross-site request refused", "cross_site_refused"),
  NotFoundEncoded: coded("Order not found", "order_not_found"),
  ConflictEncoded: coded("Insufficient balance: 23000 UZS required, 1500 UZS available", "balance_insufficient", {
    required_uzs: 23000,
    balance_uzs: 1500
  }),
  PayloadTooLargeEncoded: coded(
    "The request body is larger than 65536 bytes, the most this route accepts",
    "payload_too_large"
  ),
  TooManyRequestsEncoded: coded(
    "Daily info lookup quota of 10 is used up; upgrade the tier for more",
    "info_quota_exceeded",
    { limit: 10, day: "2026-01-31" }
  ),
  ServiceUnavailableEncoded: coded("Marketplace is unavailable; try again later", "marketplace_unavailable"),
  HTTPValidationErrorEncoded: {
    // FastAPI's `input` of a missing field is the object it is missing from.
    detail: [{ type: "missing", loc: ["body", "amount"], msg: "Field required", input: { username: "durov" } }],
    code: "validation_error",
    request_id: REQUEST_ID
  },
  ValidationError: { type: "missing", loc: ["body", "amount"], msg: "Field required", input: { username: "durov" } },
  // Requests.
  StarsOrderRequest: { username: "durov", amount: 100 },
  TopupRequest: { amount_uzs: 50000 },
  PremiumOrderRequest: { username: "durov", duration: 3 },
  GiftOrderRequest: { username: "durov", gift_id: "5170145012310081615", comment: "Happy birthday", anonymous: false },
  NameRequest: { username: "durov" },
  IncomingPaymentRequest: { amount_uzs: 50000, card_last4: "1234", external_id: "bank-msg-8812" },
  WebhookCreateRequest: { url: "https://example.com/hooks/resale", events: ["order.completed", "order.failed"] },
  // Answers.
  Home: {
    service: "resale",
    version: "0.1.0",
    sandbox: false,
    signed_in: false,
    bot_username: "resale_bot",
    sign_in_url: null
  },
  ApiDocs: {
    openapi_url: "/v2/openapi.json",
    tiers: [
      { tier: 0, daily_limit: 10, price_uzs: 0 },
      { tier: 1, daily_limit: 100, price_uzs: 50000 },
      { tier: 2, daily_limit: 1000, price_uzs: 200000 }
    ],
    current_tier: 0
  },
  LoginPage: { login: "POST /v2/admin/login with form field token", signed_in: false },
  Ok: { ok: true },
  Pricing: pricing,
  User: user,
  Dashboard: { user, balance_uzs: 127000, pricing, topups: [topup], orders: [order], sandbox: false },
  ApiKey: { api_key: "rk_live_3q7X9vB2mN8pL4sT6wY1zC5d", prefix: "rk_live_3q7X", webhooks_removed: 0 },
  Balance: { balance_uzs: 150000, sandbox: false },
  Topup: topup,
  TopupCreated: { topup, payable_uzs: 50000, expires_at: LATER, pay_to_card: "8600 1234 5678 9012", sandbox: false },
  TopupStatus: { balance_uzs: 127000, topups: [topup], sandbox: false },
  TopupList: { topups: [paid], has_more: true, next_cursor: 15 },
  Order: order,
  OrderCreated: { ok: true, order: queued, balance_uzs: 104000, sandbox: false },
  OrdersPage: { orders: [order], total: 1, offset: 0, limit: 20 },
  OrderList: { orders: [order], has_more: false, next_cursor: null },
  Gift: {
    gift_id: "5170145012310081615",
    title: "Heart",
    stars: 15,
    price_uzs: 3450,
    remaining: null,
    picture_url: null
  },
  Gifts: {
    gifts: [
      { gift_id: "5170145012310081615", title: "Heart", stars: 15, price_uzs: 3450, remaining: null, picture_url: null }
    ],
    sandbox: false
  },
  InfoLookup: {
    username: "durov",
    found: true,
    name: "Durov",
    photo_url: "https://fragment.com/img/durov.jpg",
    quota,
    sandbox: false
  },
  TierUpgrade: { tier: 1, price_uzs: 50000, balance_uzs: 77000, quota: { tier: 1, used: 0, limit: 100 } },
  Ticket: ticket,
  TicketMessage: message,
  Tickets: { tickets: [ticket], total: 1 },
  TicketDetail: { ticket, messages: [message] },
  TicketPoll: {
    ticket_id: 3,
    status: "open",
    messages: [{ ...message, message_id: 12, author: "operator", body: "Sent now, sorry for the wait." }],
    cursor: 12
  },
  AdminHome: { pricing, pending_topups: 2, review_topups: 1, open_tickets: 3, sandbox: false },
  AdminTopup: adminReceipt,
  AdminTopups: {
    topups: [adminReceipt, { ...paid, possible_duplicate_of: null, possible_duplicate_reason: null }],
    total: 2
  },
  OrderEvidence: evidence,
  AdminOrder: adminOrder,
  AdminStatus: {
    at: LATER,
    sessions: [
      {
        session: "main",
        health: "ready",
        held_until: null,
        purchases_last_hour: { accepted: 41, refused: 0, unsent: 1 },
        last_purchase_at: AT
      }
    ],
    hot_wallet: {
      funded: true,
      type: "highload-v3",
      address: "UQBvW8Z5huBkMJYdnfAEM5JqTNkuWX3diqYENkWsIL0XggGG",
      state: "active",
      balance_ton: "152.360000001",
      fund_at: [],
      read_at: AT
    },
    batches_in_flight: 1,
    queue: { queued: 3, processing: 2, needs_attention: 0, oldest_waiting_order_id: 42, oldest_waiting_seconds: 14 },
    last_block_at: AT,
    workers: [{ worker: "worker-1:4121", started_at: AT, beat_at: LATER, silent_seconds: 2, alive: true }]
  },
  AdminOrders: { orders: [adminOrder], total: 1 },
  IncomingPaymentResult: { payment_id: 31, status: "matched", topup_id: 15, duplicate: false },
  WebhookEndpoint: webhook,
  WebhookEndpointWithSecret: { ...webhook, secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" },
  WebhookEndpointList: { webhooks: [webhook] },
  WebhookDeleted: { id: 5, deleted: true },
  WebhookTestSent: { event_id: "evt_01JH8Z3Q6W2T" },
  WebhookDeliveryLog: {
    deliveries: [
      {
        id: 90,
        event_id: "evt_01JH8Z3Q6W2T",
        event: "order.completed",
        status: "delivered",
        attempts: 1,
        last_status_code: 200,
        last_error: null,
        next_attempt_at: null,
        created_at: AT,
        delivered_at: AT
      }
    ]
  },
  ErrorCode: "balance_insufficient"
}

/**
 * An operation's answer where its schema's example would tell another story (the same schema answers
 * other operations in other states), by operationId; set on the operation's 200 response.
 */
export const RESPONSE_EXAMPLES: Record<string, unknown> = {
  "account.uploadReceipt": { ...topup, method: "receipt", status: "review", has_receipt: true, expires_at: null },
  "admin.refundOrder": {
    ...queued,
    status: "failed",
    error: "refunded by an operator: Recipient not found on Telegram",
    error_code: "refunded_by_operator"
  }
}

/** The inline request bodies (forms mostly: every field is text), by operationId. */
export const REQUEST_EXAMPLES: Record<string, unknown> = {
  "public.botWebhook": {
    update_id: 10001,
    message: { message_id: 1, chat: { id: 777000111, type: "private" }, text: "/start" }
  },
  "adminLogin.login": { token: "the-admin-token" },
  "account.rotateApiKey": { keep_webhooks: "false" },
  "account.createTopup": { amount_uzs: "50000" },
  "account.uploadReceipt": { amount_uzs: "50000", receipt: "(an image or PDF file)" },
  "account.buyGift": { username: "durov", gift_id: "5170145012310081615", comment: "Happy birthday" },
  "account.upgradeInfoTier": { tier: "1" },
  "account.createTicket": {
    subject: "Stars not received",
    body: "I bought 100 stars an hour ago and see nothing yet."
  },
  "account.replyTicket": { body: "Thank you!" },
  "account.pushSubscribe": {
    endpoint: "https://fcm.googleapis.com/fcm/send/abc123",
    expirationTime: null,
    keys: {
      p256dh: "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM",
      auth: "tBHItJI5svbpez7KI4CCXg"
    }
  },
  "admin.pricing": {
    star_price_uzs: "230",
    premium_3_month_uzs: "180000",
    premium_6_month_uzs: "240000",
    premium_12_month_uzs: "430000"
  },
  "admin.approveTopup": { admin_note: "Receipt checked against the bank statement", confirm_duplicate: "false" },
  "admin.rejectTopup": { admin_note: "The receipt shows another card" },
  "admin.markOrderDone": { tx_id: "b5f1c2d8e0a94f3b" },
  "admin.refundOrder": { note: "Recipient not found on Telegram" },
  "admin.replyTicket": { body: "Sent now, sorry for the wait." }
}

/** Pages and files, whatever the operation. */
export const MEDIA_EXAMPLES: Record<string, string> = {
  "text/html": '<!doctype html><html lang="en">...</html>',
  "application/octet-stream": "(the receipt file: an image or a PDF)"
}
