/**
 * Limits whose defaults the core owns: the direct surface's rates, key-derivation gate and waits, and the
 * caps per account with the hosts web push may reach.
 */
import { DEFAULT_ACCOUNT_CAPS } from "@resale/core/caps/CapSettings.ts"
import { DEFAULT_DIRECT_SETTINGS } from "@resale/core/direct/DirectSettings.ts"
import { DEFAULT_PUSH_HOSTS } from "@resale/core/push/PushEndpointRules.ts"
import * as S from "../Setting.ts"

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
