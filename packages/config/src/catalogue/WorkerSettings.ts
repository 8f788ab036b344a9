/** The worker's settings: the hot wallet's batches, concurrency, and the waits and retries of orders, payments and notifications. */
import * as S from "../Setting.ts"

export const Worker = {
  HOT_WALLET_VERSION: S.oneOf(
    "HOT_WALLET_VERSION",
    ["v5r1", "v4r2", "highload-v3"],
    "wallet contract of HOT_WALLET_MNEMONIC that pays: v5r1, v4r2 or highload-v3 (Highload Wallet V3; see the hot wallet section of docs/operations.md); unset: the funded v5r1 or v4r2 one (sandbox: v5r1)"
  ),
  HOT_WALLET_BATCH: S.integer(
    "HOT_WALLET_BATCH",
    255,
    "most account-order payments one message of the hot wallet carries (v5r1 up to 255, highload-v3 up to 254, v4r2 up to 4); 1: one at a time; a batch holds at most WORKER_CONCURRENCY orders",
    1
  ),
  HOT_WALLET_PARALLEL: S.integer(
    "HOT_WALLET_PARALLEL",
    4,
    "messages of a highload-v3 hot wallet in flight at once, each a batch under its own query id (v5r1 and v4r2 always have one: their seqno)",
    1
  ),
  HOT_WALLET_BATCH_WAIT: S.duration(
    "HOT_WALLET_BATCH_WAIT",
    "5 seconds",
    "about one block of the chain (mainnet: some 5 seconds): a free slot of a highload-v3 hot wallet sends at once, and holds orders to fill its batch only while each of the HOT_WALLET_PARALLEL slots sent within this long (at most that many messages per block) or in a rush (more invoices being quoted than wait: until the latest message is this old); a full batch, or a lone order with nothing in flight, never waits; 0: every free slot sends at once"
  ),
  FRAGMENT_QUOTE_CONCURRENCY: S.integer(
    "FRAGMENT_QUOTE_CONCURRENCY",
    8,
    "Fragment invoices asked for at once by one worker (rate limits and busy sessions back off)",
    1
  ),
  WORKER_CONCURRENCY: S.integer("WORKER_CONCURRENCY", 4, "orders processed at once by one worker", 1),
  WORKER_POLL_INTERVAL: S.duration("WORKER_POLL_INTERVAL", "1 second", "idle wait of a fulfilment loop"),
  ORDER_LEASE: S.duration(
    "ORDER_LEASE",
    "60 seconds",
    "silence after which a processing order is resumed by another worker"
  ),
  ORDER_DELIVERY_WAIT: S.duration("ORDER_DELIVERY_WAIT", "60 seconds", "wait for Fragment's delivery after paying"),
  PAYMENT_CONFIRM_WAIT: S.duration(
    "PAYMENT_CONFIRM_WAIT",
    "75 seconds",
    "wait for a sent payment on chain before its outcome is unknown"
  ),
  PAYMENT_POLL_INTERVAL: S.duration(
    "PAYMENT_POLL_INTERVAL",
    "1500 millis",
    "pause between two looks at the chain or Fragment"
  ),
  PAYMENT_STALE_AFTER: S.duration(
    "PAYMENT_STALE_AFTER",
    "3 minutes",
    "an in-flight payment untouched this long belongs to a dead process"
  ),
  ORDER_RETRY_DELAY: S.duration(
    "ORDER_RETRY_DELAY",
    "30 seconds",
    "first wait before an order that paid nothing (e.g. Fragment did not answer) is tried again (doubles, at most an hour)"
  ),
  ORDER_MAX_ATTEMPTS: S.integer(
    "ORDER_MAX_ATTEMPTS",
    8,
    "attempts of such an order before it fails and is refunded",
    1
  ),
  ORDER_RECONCILE_DELAY: S.duration(
    "ORDER_RECONCILE_DELAY",
    "30 seconds",
    "first wait before an unknown outcome is looked at again (doubles, jittered)"
  ),
  ORDER_UNKNOWN_RETRY_MAX: S.duration(
    "ORDER_UNKNOWN_RETRY_MAX",
    "10 minutes",
    "longest wait between two looks at an unknown outcome"
  ),
  ORDER_ATTENTION_AFTER: S.duration(
    "ORDER_ATTENTION_AFTER",
    "30 minutes",
    "an outcome unknown this long (and checked ORDER_ATTENTION_ATTEMPTS times) goes to the operators"
  ),
  ORDER_ATTENTION_ATTEMPTS: S.integer(
    "ORDER_ATTENTION_ATTEMPTS",
    8,
    "checks of an unknown outcome before it goes to the operators (with ORDER_ATTENTION_AFTER)",
    1
  ),
  WORKER_PAYMENTS_INTERVAL: S.duration(
    "WORKER_PAYMENTS_INTERVAL",
    "30 seconds",
    "period of the payments job (re-match, expiry)"
  ),
  PAYMENT_REMATCH_WINDOW: S.duration(
    "PAYMENT_REMATCH_WINDOW",
    "15 minutes",
    "how much later than a payment its top-up may have been created"
  ),
  WORKER_NOTIFY_INTERVAL: S.duration(
    "WORKER_NOTIFY_INTERVAL",
    "2 seconds",
    "period of the notifications job when the outbox was empty"
  ),
  WORKER_NOTIFY_BATCH: S.integer("WORKER_NOTIFY_BATCH", 20, "notifications taken at once", 1)
} as const
