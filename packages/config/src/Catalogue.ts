/**
 * Every environment variable the product reads, in one place: name, default and meaning. The start
 * reads and checks all of them at once (`ReadSettings.ts`); `.env.example` lists exactly these.
 */
import { DEFAULT_ACCOUNT_CAPS } from "@resale/core/caps/CapSettings.ts"
import { DEFAULT_DIRECT_SETTINGS } from "@resale/core/direct/DirectSettings.ts"
import { DEFAULT_PUSH_HOSTS } from "@resale/core/push/PushEndpointRules.ts"
import * as Secret from "./SecretSettings.ts"
import * as S from "./Setting.ts"

/** Where production's chain and Fragment are when TONCENTER_URL and FRAGMENT_URL are unset. */
export const TONCENTER_MAINNET = "https://toncenter.com/api/v2/jsonRPC"
export const FRAGMENT_ORIGIN = "https://fragment.com"

export const Mode = {
  SANDBOX: S.optionalFlag(
    "SANDBOX",
    "true: sandbox (emulated TON chain, simulated Fragment and gifts, faucet, fake money); false: production. " +
      "Unset: sandbox unless a production setting (TELEGRAM_BOT_TOKEN, HOT_WALLET_MNEMONIC, FRAGMENT_COOKIES) is given. " +
      "Sandbox mode refuses to start with TONCENTER_URL or FRAGMENT_COOKIES (a real chain or Fragment)"
  ),
  HOST: S.text(
    "HOST",
    "127.0.0.1",
    "address the server listens on; keep 127.0.0.1 behind a reverse proxy on the same machine, 0.0.0.0 or :: to accept other hosts"
  ),
  PORT: S.port("PORT", 8000, "HTTP port of the server"),
  PUBLIC_URL: S.optionalUrl(
    "PUBLIC_URL",
    "the address customers use (links, bot messages, cookies' Secure flag when https)",
    "http://127.0.0.1:$PORT"
  ),
  DATA_DIR: S.text(
    "DATA_DIR",
    ".data",
    "local state: embedded PostgreSQL, sandbox chain and world, VAPID keys, gift log"
  ),
  RESALE_RUN_SOURCES: S.flag(
    "RESALE_RUN_SOURCES",
    false,
    "true: npm start, npm run worker and resale run the TypeScript sources instead of the start bundle (dist/, deploy/start.mjs)"
  ),
  WORKER: S.flag(
    "WORKER",
    true,
    "npm start also runs the worker in its process; false when `npm run worker` runs apart"
  ),
  LOG_REQUESTS: S.flag(
    "LOG_REQUESTS",
    true,
    "one log line per request (method, route, status, duration_ms, client, user)"
  ),
  LOG_FORMAT: S.oneOf(
    "LOG_FORMAT",
    ["json", "pretty"],
    "json: one JSON object per line; pretty: readable lines; default pretty on a terminal, json otherwise"
  ),
  LOG_LEVEL: S.oneOf(
    "LOG_LEVEL",
    ["trace", "debug", "info", "warn", "error", "fatal", "none"],
    "lowest level logged; default info"
  ),
  METRICS_TOKEN: S.secret(
    "METRICS_TOKEN",
    "bearer token of /metrics (never ADMIN_TOKEN); outside sandbox /metrics is off (404) until it is set; sandbox: loopback callers need none"
  ),
  WORKER_PROBE_PORT: S.optionalPort(
    "WORKER_PROBE_PORT",
    "npm run worker: serve /livez, /readyz and /metrics on HOST:this port; unset: none"
  ),
  OTEL_EXPORTER_OTLP_ENDPOINT: S.optionalUrl(
    "OTEL_EXPORTER_OTLP_ENDPOINT",
    "OTLP/HTTP collector for traces (JSON to <url>/v1/traces); unset: no trace export"
  ),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: S.optionalUrl(
    "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
    "the full OTLP/HTTP traces URL, instead of OTEL_EXPORTER_OTLP_ENDPOINT/v1/traces"
  ),
  OTEL_SDK_DISABLED: S.flag("OTEL_SDK_DISABLED", false, "true: no trace export whatever the endpoints say"),
  OTEL_EXPORTER_OTLP_HEADERS: Secret.headerList(
    "OTEL_EXPORTER_OTLP_HEADERS",
    "headers sent to the OTLP collector, key=value,key2=value2 (secret: usually its credentials)"
  ),
  OTEL_SERVICE_NAME: S.optionalText(
    "OTEL_SERVICE_NAME",
    "service name on exported traces; default resale-server / resale-worker"
  )
} as const

export const Storage = {
  DATABASE_URL: S.postgresUrl(
    "DATABASE_URL",
    "PostgreSQL 15+ (secret); unset: the embedded PostgreSQL under DATA_DIR/pg"
  ),
  PG_POOL_MAX: S.integer("PG_POOL_MAX", 10, "connections per process to DATABASE_URL", 1)
} as const

export const Secrets = {
  ADMIN_TOKEN: S.secret(
    "ADMIN_TOKEN",
    "operator token (panel sign-in, x-admin-token); at least 24 characters; sandbox: generated and printed when unset"
  ),
  SESSION_SECRET: S.secret(
    "SESSION_SECRET",
    "key of the session cookie signatures; at least 32 random characters; required outside sandbox"
  ),
  TELEGRAM_BOT_TOKEN: S.secret(
    "TELEGRAM_BOT_TOKEN",
    "the bot's token from @BotFather (login widget, bot messages); required outside sandbox"
  ),
  TELEGRAM_WEBHOOK_SECRET: S.secret(
    "TELEGRAM_WEBHOOK_SECRET",
    "path secret of the bot webhook (PUBLIC_URL/v2/bot/webhook/<this>); default derived from SESSION_SECRET"
  ),
  TELEGRAM_WEBHOOK_HEADER_SECRET: Secret.webhookToken(
    "TELEGRAM_WEBHOOK_HEADER_SECRET",
    "the bot webhook's secret_token (Telegram sends it as X-Telegram-Bot-Api-Secret-Token), unlike the path secret never in a URL; default derived from SESSION_SECRET"
  ),
  HOT_WALLET_MNEMONIC: S.secret(
    "HOT_WALLET_MNEMONIC",
    "24 words of the hot wallet that pays Fragment for account orders; required for the worker outside sandbox"
  )
} as const

export const Telegram = {
  TELEGRAM_BOT_USERNAME: S.optionalText("TELEGRAM_BOT_USERNAME", "the bot's username, for the login widget"),
  TELEGRAM_API_URL: S.httpUrl("TELEGRAM_API_URL", "https://api.telegram.org", "Bot API base URL"),
  OPERATOR_CHAT_IDS: S.chatIds("OPERATOR_CHAT_IDS", "comma-separated bot chats that receive operator notifications"),
  GIFT_SENDERS: S.names("GIFT_SENDERS", ["user", "girl"], "gift sender account names; the first is the default"),
  TELEGRAM_API_ID: S.optionalInteger(
    "TELEGRAM_API_ID",
    "MTProto app id of the gift sender accounts (with TELEGRAM_API_HASH and GIFT_SENDER_<NAME>_SESSION per account)"
  ),
  TELEGRAM_API_HASH: S.secret("TELEGRAM_API_HASH", "MTProto app hash (secret)"),
  PAYMENT_CARD: S.optionalText(
    "PAYMENT_CARD",
    "card number shown to users paying a card top-up (sandbox: 8600 0000 0000 0000)"
  )
} as const

export const World = {
  TONCENTER_URL: S.optionalUrl(
    "TONCENTER_URL",
    "toncenter v2 JSON-RPC endpoint; production only (sandbox mode refuses it and uses the shared sandbox chain of DATA_DIR)",
    TONCENTER_MAINNET
  ),
  TONCENTER_API_KEY: S.secret("TONCENTER_API_KEY", "toncenter API key (secret)"),
  TON_NETWORK: S.oneOf(
    "TON_NETWORK",
    ["mainnet", "testnet"],
    "network of TONCENTER_URL; default testnet when the URL names it, else mainnet"
  ),
  TONCENTER_TIMEOUT: S.duration("TONCENTER_TIMEOUT", "15 seconds", "per toncenter request"),
  FRAGMENT_URL: S.optionalUrl(
    "FRAGMENT_URL",
    "Fragment's address; sandbox: unset uses the shared Fragment simulator",
    FRAGMENT_ORIGIN
  ),
  FRAGMENT_COOKIES: S.cookieHeader(
    "FRAGMENT_COOKIES",
    ["stel_ssid", "stel_dt", "stel_token", "stel_ton_token"],
    "Cookie header of a signed-in Fragment session (secret); required outside sandbox, refused in sandbox mode"
  ),
  FRAGMENT_TIMEOUT: S.duration("FRAGMENT_TIMEOUT", "20 seconds", "per Fragment request"),
  FRAGMENT_SESSIONS: S.names(
    "FRAGMENT_SESSIONS",
    [],
    "more Fragment sessions, bought through side by side; each needs FRAGMENT_COOKIES_<NAME>"
  ),
  FRAGMENT_PROXY: Secret.secretUrl(
    "FRAGMENT_PROXY",
    "http:// or https:// proxy every Fragment call goes through (secret: may hold a password)"
  ),
  FRAGMENT_SESSION_HOLD: S.duration(
    "FRAGMENT_SESSION_HOLD",
    "3 minutes",
    "longest time one purchase keeps its Fragment session to itself"
  ),
  FRAGMENT_SESSION_WAIT: S.duration(
    "FRAGMENT_SESSION_WAIT",
    "30 seconds",
    "longest time a purchase waits for a free Fragment session"
  ),
  SANDBOX_SLOW_SEARCH: S.duration(
    "SANDBOX_SLOW_SEARCH",
    "20 seconds",
    "sandbox: how long the simulated Fragment takes to answer a search for sandbox_timeout (past FRAGMENT_TIMEOUT)"
  ),
  SANDBOX_LATE_DELIVERY: S.duration(
    "SANDBOX_LATE_DELIVERY",
    "90 seconds",
    "sandbox: how long after the payment the simulated Fragment reports sandbox_late delivered (past ORDER_DELIVERY_WAIT)"
  ),
  SANDBOX_BLOCK_INTERVAL: S.duration(
    "SANDBOX_BLOCK_INTERVAL",
    "0 seconds",
    "sandbox chain: time between two blocks; a sent message runs and shows with the next block (mainnet: about 5 seconds); 0: at once"
  ),
  SANDBOX_FRAGMENT_SESSIONS: S.integer(
    "SANDBOX_FRAGMENT_SESSIONS",
    1,
    "sandbox: cookie sessions the Fragment simulator offers, bought through side by side as FRAGMENT_SESSIONS are",
    1
  )
} as const

export const Edges = {
  LOGIN_MAX_AGE: S.duration(
    "LOGIN_MAX_AGE",
    "10 minutes",
    "how long a Telegram sign-in payload is accepted after Telegram issued it (each is used once)"
  ),
  TRUSTED_PROXIES: S.text(
    "TRUSTED_PROXIES",
    "",
    "comma-separated addresses or CIDR ranges of the reverse proxies in front of the server; the client address is the rightmost X-Forwarded-For hop that is not one of them"
  )
} as const

export const Direct = {
  DIRECT_RATE_LIMIT: S.integer("DIRECT_RATE_LIMIT", 600, "direct surface: requests per minute per client address", 1),
  DIRECT_RATE_BURST: S.integer("DIRECT_RATE_BURST", 100, "direct surface: burst above the rate", 1),
  DIRECT_RATE_SHARED: S.optionalFlag(
    "DIRECT_RATE_SHARED",
    "direct surface: true: count the rate in PostgreSQL, one budget for every server; false: per process in memory. " +
      "Unset: true with DATABASE_URL (several servers may run), false on the embedded database (one process)"
  ),
  DIRECT_DERIVATIONS: S.integer("DIRECT_DERIVATIONS", 4, "direct surface: wallets resolved (keys derived) at once", 1),
  DIRECT_DERIVATION_QUEUE: S.integer(
    "DIRECT_DERIVATION_QUEUE",
    100,
    "direct surface: requests waiting for a derivation; more answer 503",
    0
  ),
  DIRECT_DERIVATION_WAIT: S.duration(
    "DIRECT_DERIVATION_WAIT",
    "5 seconds",
    "direct surface: longest wait for a derivation before 503"
  ),
  DIRECT_ANSWER_TIMEOUT: S.duration(
    "DIRECT_ANSWER_TIMEOUT",
    DEFAULT_DIRECT_SETTINGS.answerWithin,
    "direct surface: longest wait before answering (a payment still running answers 409)"
  ),
  DIRECT_REPLAY_WINDOW: S.duration(
    "DIRECT_REPLAY_WINDOW",
    DEFAULT_DIRECT_SETTINGS.replayWithin,
    "direct surface: an identical request this soon after its order finished gets the stored result"
  ),
  DIRECT_TRUST_PROXY: S.flag(
    "DIRECT_TRUST_PROXY",
    false,
    "direct surface: client address from X-Forwarded-For (behind a proxy only)"
  ),
  DIRECT_MAX_BODY: S.integer("DIRECT_MAX_BODY", 16384, "direct surface: largest request body in bytes", 1024),
  DIRECT_CONFIRM_TIMEOUT: S.duration(
    "DIRECT_CONFIRM_TIMEOUT",
    DEFAULT_DIRECT_SETTINGS.confirmWithin,
    "direct surface: wait for the chain before leaving an outcome open"
  ),
  DIRECT_DELIVERY_TIMEOUT: S.duration(
    "DIRECT_DELIVERY_TIMEOUT",
    DEFAULT_DIRECT_SETTINGS.deliveryWithin,
    "direct surface: wait for Fragment's delivery"
  ),
  DIRECT_POLL_INTERVAL: S.duration(
    "DIRECT_POLL_INTERVAL",
    DEFAULT_DIRECT_SETTINGS.pollEvery,
    "direct surface: pause between two looks"
  )
} as const

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

export const Push = {
  VAPID_PUBLIC_KEY: S.optionalText(
    "VAPID_PUBLIC_KEY",
    "web push VAPID public key (base64url); sandbox: generated into DATA_DIR/vapid-keys.json"
  ),
  VAPID_PRIVATE_KEY: S.secret("VAPID_PRIVATE_KEY", "web push VAPID private key (secret)"),
  VAPID_SUBJECT: S.text(
    "VAPID_SUBJECT",
    "mailto:operator@localhost",
    "VAPID contact of the operator (mailto: or https:)"
  )
} as const

/** Caps per account and where web push may go (the core's `AccountCaps` and `PushPolicy`, whose defaults these are). */
export const Limits = {
  CAP_OPEN_TOPUPS: S.integer(
    "CAP_OPEN_TOPUPS",
    DEFAULT_ACCOUNT_CAPS.openCardTopups,
    "card top-ups one account may have waiting for payment at once (more: 409)",
    1
  ),
  CAP_OPEN_REVIEWS: S.integer(
    "CAP_OPEN_REVIEWS",
    DEFAULT_ACCOUNT_CAPS.openReviews,
    "receipts one account may have waiting for an operator at once (more: 409)",
    1
  ),
  CAP_TOPUPS_PER_DAY: S.integer(
    "CAP_TOPUPS_PER_DAY",
    DEFAULT_ACCOUNT_CAPS.topupsPerDay,
    "card top-ups one account may create per 24 hours (more: 429)",
    1
  ),
  CAP_CANCELS_PER_DAY: S.integer(
    "CAP_CANCELS_PER_DAY",
    DEFAULT_ACCOUNT_CAPS.cancelsPerDay,
    "top-ups one account may cancel per 24 hours (more: 429)",
    1
  ),
  CAP_UPLOADS_PER_DAY: S.integer(
    "CAP_UPLOADS_PER_DAY",
    DEFAULT_ACCOUNT_CAPS.uploadsPerDay,
    "receipt files one account may upload per 24 hours (more: 429)",
    1
  ),
  CAP_TICKETS_PER_DAY: S.integer(
    "CAP_TICKETS_PER_DAY",
    DEFAULT_ACCOUNT_CAPS.ticketsPerDay,
    "support tickets one account may open per 24 hours (more: 429)",
    1
  ),
  CAP_PUSH_SUBSCRIPTIONS: S.integer(
    "CAP_PUSH_SUBSCRIPTIONS",
    DEFAULT_ACCOUNT_CAPS.pushSubscriptions,
    "browsers one account keeps subscribed to web push (a new one replaces the oldest)",
    1
  ),
  PUSH_ALLOWED_HOSTS: S.text(
    "PUSH_ALLOWED_HOSTS",
    DEFAULT_PUSH_HOSTS.join(","),
    "comma-separated hosts (*. = any subdomain) a web push subscription may point to, over https"
  )
} as const

export const Webhooks = {
  WEBHOOKS_ALLOW_LOOPBACK: S.flag(
    "WEBHOOKS_ALLOW_LOOPBACK",
    false,
    "sandbox only: integrators' webhooks may also target http(s)://127.0.0.1 / localhost (local testing); production refuses it"
  )
} as const

/** The groups as `.env.example` shows them. */
export const CATALOGUE: ReadonlyArray<{
  readonly title: string
  readonly settings: ReadonlyArray<S.Setting<unknown>>
}> = [
  { title: "Mode and server", settings: Object.values(Mode) },
  { title: "Storage", settings: Object.values(Storage) },
  { title: "Secrets (production refuses to start without them)", settings: Object.values(Secrets) },
  { title: "Telegram", settings: Object.values(Telegram) },
  { title: "TON chain and Fragment", settings: Object.values(World) },
  { title: "Sign-in and client addresses", settings: Object.values(Edges) },
  { title: "Direct purchase surface", settings: Object.values(Direct) },
  { title: "Worker", settings: Object.values(Worker) },
  { title: "Web push", settings: Object.values(Push) },
  { title: "Integrators' webhooks", settings: Object.values(Webhooks) },
  { title: "Caps per account and push hosts (the core README explains each)", settings: Object.values(Limits) }
]
