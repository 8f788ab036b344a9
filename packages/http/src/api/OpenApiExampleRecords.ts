/**
 * The sample records the /v2 examples (`OpenApiExamples.ts`) are made of: one user's order, top-up,
 * ticket and webhook, and their variants in other states, so every example tells the same story.
 */
export const AT = "2026-01-31T12:00:00.000Z"
export const LATER = "2026-01-31T12:30:00.000Z"

export const pricing = {
  star_price_uzs: 230,
  premium_3_month_uzs: 180000,
  premium_6_month_uzs: 240000,
  premium_12_month_uzs: 430000,
  sandbox: false
}
export const order = {
  order_id: 42,
  user_id: 7,
  kind: "stars",
  username: "durov",
  stars: 100,
  duration: null,
  months: null,
  gift_id: null,
  price_uzs: 23000,
  status: "completed",
  tx_id: "b5f1c2d8e0a94f3b",
  error: null,
  error_code: null,
  delivery: "confirmed",
  fragment_ref: "kpJ55h3BW",
  created_at: AT
}
export const queued = { ...order, status: "queued", tx_id: null, delivery: null, fragment_ref: null }
export const topup = {
  topup_id: 15,
  user_id: 7,
  method: "card",
  status: "pending",
  amount_uzs: 50000,
  payable_uzs: 50000,
  credited_uzs: null,
  has_receipt: false,
  admin_note: null,
  expires_at: LATER,
  created_at: AT
}
export const paid = { ...topup, status: "paid", credited_uzs: 50000 }
/** A receipt awaiting review, of the same amount as the user's credited card top-up. */
export const adminReceipt = {
  ...topup,
  topup_id: 16,
  method: "receipt",
  status: "review",
  has_receipt: true,
  expires_at: null,
  possible_duplicate_of: 15,
  possible_duplicate_reason: "same_amount"
}
export const evidence = {
  tx_hash: "9f3ac1e07b2d4c58",
  ref: "kpJ55h3BW",
  chain_state: "confirmed",
  answers: ["Paid to the marketplace: Ref#kpJ55h3BW"]
}
/** An order in the operators' queue: paid, its delivery unconfirmed after the worker's checks. */
export const adminOrder = {
  ...order,
  status: "needs_attention",
  tx_id: null,
  delivery: null,
  error: "Marketplace did not confirm the delivery",
  error_code: "unknown",
  attempts: 3,
  next_attempt_at: null,
  unknown_checks: 2,
  unknown_since: AT,
  evidence
}
export const user = {
  user_id: 7,
  telegram_id: 777000111,
  username: "nodira",
  first_name: "Nodira",
  tier: 0,
  has_api_key: true,
  bot_linked: false
}
export const ticket = {
  ticket_id: 3,
  user_id: 7,
  subject: "Stars not received",
  status: "open",
  last_author: "user",
  created_at: AT,
  updated_at: LATER
}
export const message = {
  message_id: 11,
  author: "user",
  body: "I bought 100 stars an hour ago and see nothing yet.",
  created_at: AT
}
export const quota = { tier: 0, used: 3, limit: 10 }
export const webhook = {
  id: 5,
  url: "https://example.com/hooks/resale",
  events: ["order.completed", "order.failed"],
  created_at: AT
}
