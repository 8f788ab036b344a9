/** The outside world's settings: the Telegram bot and gift senders, the TON chain and Fragment (and their sandbox stand-ins). */
import * as Secret from "../SecretSettings.ts"
import * as S from "../Setting.ts"

/** Where production's chain and Fragment are when TONCENTER_URL and FRAGMENT_URL are unset. */
export const TONCENTER_MAINNET = "https://toncenter.com/api/v2/jsonRPC"
export const FRAGMENT_ORIGIN = "https://fragment.com"

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
