import { DEFAULT_TOPUP_SETTINGS } from "@resale/core/topups/TopupSettings.ts"

/**
 * Summary and description of every /v2 operation, by operationId (`group.endpoint`), and of every
 * tag. A test checks that each served operation has an entry, and the linter that none lacks one.
 */
export interface OperationDoc {
  readonly summary: string
  /** Required: every operation says what it does (integrators read it in their generated clients). */
  readonly description: string
}

/** The default receipt limit in whole MB (`TopupSettings.receiptMaxBytes`). */
const DEFAULT_RECEIPT_MB = Math.floor(DEFAULT_TOPUP_SETTINGS.receiptMaxBytes / (1024 * 1024))

export const TAGS: Record<string, string> = {
  api: "The API-key API for integrators: balance, purchases, one order, gifts, recipient lookup (`X-API-Key`).",
  lists: "The integrator's orders and top-ups, newest first, by cursor (`X-API-Key`).",
  webhooks: "The integrator's webhook endpoints: order and top-up events, signed per Standard Webhooks (`X-API-Key`).",
  apiAdmin: "Operator calls for machines: mark a top-up paid, report a bank payment (`X-Admin-Token`).",
  pricing: "Public price list.",
  public: "Home, Telegram sign-in, API docs, receipts and the bot webhook.",
  adminLogin: "Operator sign-in with the admin token (sets the operator session cookie).",
  account: "The signed-in shopper's pages and forms (session cookie; JSON by default, HTML for browsers).",
  admin: "The operator panel (operator session cookie).",
  health: "Liveness of the server and its database."
}

export const OPERATIONS: Record<string, OperationDoc> = {
  "public.home": { summary: "Home", description: "Service name, version, mode and the sign-in links." },
  "public.telegramCallback": {
    summary: "Telegram sign-in callback",
    description:
      "Checks the Telegram Login Widget's signed fields (query) and sets the session cookie (303 to the dashboard)."
  },
  "public.sandboxSignIn": { summary: "Sandbox sign-in", description: "Sandbox mode only: signs in a demo user (303)." },
  "public.logout": { summary: "Sign out", description: "Ends the session and clears its cookie (303)." },
  "public.apiDocs": {
    summary: "API documentation",
    description: "This contract as a page, with the info-lookup tiers."
  },
  "public.receipt": { summary: "Receipt file", description: "A top-up's receipt, for its owner or an operator." },
  "public.botWebhook": {
    summary: "Telegram bot webhook",
    description: "Updates from Telegram, with the secret path and header."
  },
  "adminLogin.loginPage": {
    summary: "Operator sign-in page",
    description: "The operator's sign-in form; the admin token is posted to `POST /v2/admin/login`."
  },
  "adminLogin.login": {
    summary: "Operator sign-in",
    description: "Form field `token`; sets the operator cookie (303)."
  },
  "adminLogin.logout": { summary: "Operator sign-out", description: "Clears the operator cookie (303)." },
  "pricing.pricing": { summary: "Price list", description: "The current prices in UZS." },
  "account.dashboard": { summary: "Dashboard", description: "The user, balance, open top-ups and recent orders." },
  "account.rotateApiKey": {
    summary: "Create a new API key",
    description:
      "Replaces the user's API key; the new key is shown once. The webhook endpoints registered with the old key are " +
      "removed unless the form field `keep_webhooks` is true; `webhooks_removed` says how many."
  },
  "account.ownWebhooks": {
    summary: "The API key's webhook endpoints",
    description: "The signed-in user's webhook endpoints (the API page lists them), without secrets."
  },
  "account.deleteOwnWebhook": {
    summary: "Delete a webhook endpoint (signed in)",
    description: "Removes one of the user's webhook endpoints and its log, as `DELETE /v2/api/webhooks/{id}` does."
  },
  "account.balance": { summary: "Balance", description: "The user's balance in UZS." },
  "account.createTopup": {
    summary: "Create a card top-up",
    description: "Form field `amount_uzs`. Answers the exact amount to transfer (`payable_uzs`) and its expiry."
  },
  "account.cancelTopup": { summary: "Cancel a top-up", description: "While it is pending or in review." },
  "account.uploadReceipt": {
    summary: "Top up with a receipt",
    // The served document is static: it names the default, which a server's setting may change.
    description: `Multipart: \`receipt\` (image or PDF, at most ${DEFAULT_RECEIPT_MB} MB by default) and \`amount_uzs\`; an operator reviews it.`
  },
  "account.topupStatus": { summary: "Open top-ups", description: "Balance and the open top-ups, for polling." },
  "account.ordersPage": {
    summary: "Orders page",
    description: "The signed-in shopper's orders, newest first, each with its state; `GET /v2/orders/list` pages them."
  },
  "account.ordersList": {
    summary: "Orders (offset pages)",
    description: "The user's orders with `offset` and `limit`."
  },
  "account.giftsPage": {
    summary: "Gift catalogue",
    description: "The star gifts on sale, each with its price in UZS at the current star price."
  },
  "account.buyGift": { summary: "Buy a gift (form)", description: "Debits the balance and queues the order." },
  "account.upgradeInfoTier": { summary: "Upgrade the info-lookup tier", description: "Debits the tier's price." },
  "account.tickets": {
    summary: "Support tickets",
    description: "The signed-in shopper's support tickets, newest first."
  },
  "account.createTicket": {
    summary: "Open a support ticket",
    description: "Opens a ticket with a subject and a first message; tickets per day are capped per account."
  },
  "account.ticket": {
    summary: "One ticket with its messages",
    description: "One of the shopper's own tickets with every message; another account's ticket is 404."
  },
  "account.pollTicket": { summary: "New messages of a ticket", description: "Messages after the `after` cursor." },
  "account.replyTicket": {
    summary: "Reply to a ticket",
    description: "Adds the shopper's message to their ticket; operators see it in their queue."
  },
  "account.pushSubscribe": { summary: "Subscribe to web push", description: "A browser PushSubscription object." },
  "admin.root": { summary: "Operator home", description: "Counts of what waits for an operator." },
  "admin.status": {
    summary: "Fleet status",
    description:
      "At one instant, for the whole fleet: each Fragment session's health, the hot wallet as the workers last read it (type, address, balance), hot-wallet batches in flight, the order queue and its oldest waiting order, the last block seen and each worker's last beat."
  },
  "admin.topups": {
    summary: "Top-ups to review",
    description:
      "Top-ups that wait for an operator (receipts to review, card transfers not yet matched) and recent ones."
  },
  "admin.pricing": {
    summary: "Set the prices",
    description: "Sets the four prices together, in whole so'm; orders placed afterwards pay the new prices."
  },
  "admin.approveTopup": { summary: "Approve a top-up", description: "Credits the balance once." },
  "admin.rejectTopup": {
    summary: "Reject a top-up",
    description: "Rejects an open top-up with an optional note the shopper reads; nothing is credited."
  },
  "admin.orders": {
    summary: "Orders (operator)",
    description:
      "Orders for operators, filterable by status, with their attempts, next try and the evidence of unknown outcomes."
  },
  "admin.retryOrder": { summary: "Retry a failed order", description: "Charges again and queues it." },
  "admin.markOrderDone": { summary: "Mark an order done", description: "With the delivery's transaction id." },
  "admin.recheckOrder": {
    summary: "Recheck an order on chain",
    description:
      "Has the worker check an order whose delivery is unknown again now, on chain by its Ref# and with Fragment."
  },
  "admin.refundOrder": {
    summary: "Refund an order",
    description: "Refunds an order that needs attention to the shopper's balance, exactly once; the order ends failed."
  },
  "admin.tickets": {
    summary: "Tickets (operator)",
    description: "Every shopper's tickets for operators, open ones first."
  },
  "admin.pollTicket": {
    summary: "New messages of a ticket (operator)",
    description: "A ticket's messages after the cursor `after` (default 0), for the operator's open conversation."
  },
  "admin.replyTicket": {
    summary: "Reply to a ticket (operator)",
    description: "Adds the operator's answer to a ticket; the shopper is notified."
  },
  "admin.closeTicket": { summary: "Close a ticket", description: "Marks a ticket closed." },
  "admin.reopenTicket": { summary: "Reopen a ticket", description: "Opens a closed ticket again." },
  "api.balance": { summary: "Balance", description: "The key owner's balance in UZS." },
  "api.buyStars": {
    summary: "Buy Telegram Stars",
    description: "Debits the balance and queues the order (50 to 1,000,000 stars). Send an `Idempotency-Key`."
  },
  "api.buyPremium": {
    summary: "Buy Telegram Premium",
    description:
      "A gift of `duration` months (3, 6 or 12); debits the balance and queues the order, which answers `duration` too (`months` is its deprecated alias). Send an `Idempotency-Key`."
  },
  "api.buyGift": {
    summary: "Buy a star gift",
    description: "A gift from the catalogue, optionally with a comment; debits the balance. Send an `Idempotency-Key`."
  },
  "api.order": { summary: "One order", description: "The key owner's order by id (others answer 404)." },
  "api.createTopup": {
    summary: "Create a card top-up",
    description:
      'JSON `{"amount_uzs": 50000}`; the same top-up as the account\'s form `POST /v2/balance/top-up`. Answers the ' +
      "exact amount to transfer (`payable_uzs`), the card and the expiry; the balance is credited once the bank " +
      "payment of that amount arrives. Send an `Idempotency-Key`."
  },
  "api.topup": { summary: "One top-up", description: "The key owner's top-up by id (others answer 404)." },
  "api.gifts": { summary: "Gift catalogue", description: "Gifts with their prices in UZS." },
  "api.getInfo": { summary: "Look up a recipient", description: "Counts against the daily quota of the key's tier." },
  "lists.listOrders": {
    summary: "List orders",
    description:
      "Newest first. Pass `next_cursor` as `cursor` for the next page; filter by `status`, `kind`, `created_after`."
  },
  "lists.listTopups": {
    summary: "List top-ups",
    description:
      "Newest first. Pass `next_cursor` as `cursor` for the next page; filter by `status`, `method`, `created_after`."
  },
  "webhooks.createWebhook": {
    summary: "Register a webhook endpoint",
    description:
      "An https URL of a public host on the default port (443) and the event types (`order.completed`, `order.failed`, " +
      "`order.refunded`, `topup.credited`; all when absent); at most 5 per account. The answer carries the signing " +
      "secret, shown only here. An endpoint holds at most 500 undelivered events; later ones are logged failed, not sent. " +
      "Each POST is `{type, timestamp, data}`; `data` of `order.completed`: `order_id`, `kind`, `recipient`, `tx_id`, " +
      "`delivery`; of `order.failed`: `order_id`, `kind`, `recipient`, `refunded_uzs` and `error_code` (the order's " +
      "`error_code`: `recipient_not_found`, `already_premium`, `purchase_refused`, `gift_refused`, `gift_sold_out`, " +
      "`marketplace_timeout`, `service_unavailable`, `refunded_by_operator` or `unknown`); of `order.refunded`: " +
      "`order_id`, `kind`, `recipient`, `amount_uzs`; of `topup.credited`: `topup_id`, `amount_uzs`, `balance_uzs`."
  },
  "webhooks.listWebhooks": {
    summary: "List webhook endpoints",
    description: "The account's endpoints, oldest first, without secrets."
  },
  "webhooks.deleteWebhook": {
    summary: "Delete a webhook endpoint",
    description: "Stops its deliveries and forgets their log."
  },
  "webhooks.rotateWebhookSecret": {
    summary: "Rotate a webhook secret",
    description: "A new signing secret, shown only here; the old one stops signing at once."
  },
  "webhooks.testWebhook": {
    summary: "Send a test event",
    description:
      "Queues a signed `webhook.test` event to the endpoint (retried for 10 minutes). At most 3 may wait per " +
      "endpoint: more answer 429 `webhook_tests_pending` with `Retry-After`."
  },
  "webhooks.webhookDeliveries": {
    summary: "Webhook delivery log",
    description:
      "The latest 100 deliveries, newest first: event, status, attempts, last status code, next attempt, delivered_at. " +
      "`last_error` is `answered <status>`, `timed out` or `could not connect`."
  },
  "apiAdmin.markPaid": { summary: "Mark a top-up paid", description: "Credits the balance once." },
  "apiAdmin.incomingPayment": {
    summary: "Report a bank payment",
    description: "From the bank relay; matched to a pending top-up by its exact payable amount, once per `external_id`."
  }
}
