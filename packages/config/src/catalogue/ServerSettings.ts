/**
 * The process-wide settings: mode, listening address, logs and traces, storage, the production secrets,
 * sign-in and client addresses, web push keys and integrators' webhooks.
 */
import * as Secret from "../SecretSettings.ts"
import * as S from "../Setting.ts"

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

export const Webhooks = {
  WEBHOOKS_ALLOW_LOOPBACK: S.flag(
    "WEBHOOKS_ALLOW_LOOPBACK",
    false,
    "sandbox only: integrators' webhooks may also target http(s)://127.0.0.1 / localhost (local testing); production refuses it"
  )
} as const
