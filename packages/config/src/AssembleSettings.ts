/**
 * The settings of one process from what was read and checked: in sandbox mode the operator token is
 * generated when unset and the other keys are derived from it; outside sandbox every key was required.
 */
import { Option, Redacted } from "effect"
import { createHmac, randomBytes } from "node:crypto"
import type { AppSettings, Role } from "./AppSettings.ts"
import type { CatalogueValues } from "./SettingReader.ts"

const derive = (key: Redacted.Redacted<string>, label: string) =>
  Redacted.make(createHmac("sha256", Redacted.value(key)).update(label).digest("hex"))

/** A webhook secret: 32 hex characters of the key's HMAC of `label`. */
const derived = (key: Redacted.Redacted<string>, label: string) =>
  Redacted.make(Redacted.value(derive(key, label)).slice(0, 32))

/** What `readSettings` found, once no problem is left. */
export interface CheckedSettings {
  readonly role: Role
  readonly sandbox: boolean
  readonly modeReason: string
  readonly values: CatalogueValues
  /** The texts of every secret setting read, for the log scrubber. */
  readonly secretTexts: ReadonlyArray<string>
  readonly toncenter: AppSettings["toncenter"]
  readonly fragment: AppSettings["fragment"]
  readonly telegramAccounts: AppSettings["telegramAccounts"]
  readonly trustedProxies: AppSettings["trustedProxies"]
}

export const assembleSettings = (checked: CheckedSettings): AppSettings => {
  const { role, sandbox, modeReason, toncenter, fragment, telegramAccounts, trustedProxies } = checked
  const { mode, storage, secrets, telegram, world, direct, edges, worker, push, webhooks, limits } = checked.values
  const headerSecret = secrets.TELEGRAM_WEBHOOK_HEADER_SECRET
  // Sandbox only: a generated operator token and keys derived from it (a restart signs everybody out).
  const adminToken = Option.getOrElse(secrets.ADMIN_TOKEN, () => Redacted.make(randomBytes(24).toString("base64url")))
  const sessionSecret = Option.getOrElse(secrets.SESSION_SECRET, () => derive(adminToken, "sandbox session"))
  // Two labels, two keys: the path secret (written in every URL) opens nothing the header checks.
  const webhookSecret = Option.getOrElse(secrets.TELEGRAM_WEBHOOK_SECRET, () => derived(sessionSecret, "webhook"))
  const webhookHeaderSecret = Option.getOrElse(headerSecret, () => derived(sessionSecret, "webhook header"))
  // The generated admin token is left out: the sandbox banner prints it on purpose.
  const logSecrets = [
    ...checked.secretTexts,
    ...[sessionSecret, webhookSecret, webhookHeaderSecret].map((secret) => Redacted.value(secret))
  ]
  return {
    role,
    sandbox,
    modeReason,
    host: mode.HOST.trim(),
    port: mode.PORT,
    publicUrl: Option.getOrElse(mode.PUBLIC_URL, () => `http://127.0.0.1:${mode.PORT}`),
    dataDir: mode.DATA_DIR,
    inProcessWorker: mode.WORKER,
    logRequests: mode.LOG_REQUESTS,
    metricsToken: mode.METRICS_TOKEN,
    workerProbePort: mode.WORKER_PROBE_PORT,
    databaseUrl: storage.DATABASE_URL,
    pgPoolMax: storage.PG_POOL_MAX,
    adminToken,
    adminTokenGenerated: Option.isNone(secrets.ADMIN_TOKEN),
    sessionSecret,
    webhookSecret,
    webhookHeaderSecret,
    secretTexts: () => logSecrets,
    botToken: secrets.TELEGRAM_BOT_TOKEN,
    botUsername: telegram.TELEGRAM_BOT_USERNAME,
    telegramApiUrl: telegram.TELEGRAM_API_URL,
    operatorChatIds: telegram.OPERATOR_CHAT_IDS,
    giftSenders: telegram.GIFT_SENDERS,
    telegramAccounts,
    paymentCard: Option.getOrElse(telegram.PAYMENT_CARD, () => (sandbox ? "8600 0000 0000 0000" : null)),
    hotWalletMnemonic: secrets.HOT_WALLET_MNEMONIC,
    hotWalletVersion: worker.HOT_WALLET_VERSION,
    sandboxBlockInterval: world.SANDBOX_BLOCK_INTERVAL,
    sandboxFragmentSessions: world.SANDBOX_FRAGMENT_SESSIONS,
    sandboxMagic: { slowSearch: world.SANDBOX_SLOW_SEARCH, lateDelivery: world.SANDBOX_LATE_DELIVERY },
    toncenter,
    fragmentSessions: { hold: world.FRAGMENT_SESSION_HOLD, wait: world.FRAGMENT_SESSION_WAIT },
    fragment,
    direct: {
      ratePerMinute: direct.DIRECT_RATE_LIMIT,
      rateBurst: direct.DIRECT_RATE_BURST,
      rateShared: Option.getOrElse(direct.DIRECT_RATE_SHARED, () => Option.isSome(storage.DATABASE_URL)),
      derivations: direct.DIRECT_DERIVATIONS,
      derivationQueue: direct.DIRECT_DERIVATION_QUEUE,
      derivationWait: direct.DIRECT_DERIVATION_WAIT,
      answerWithin: direct.DIRECT_ANSWER_TIMEOUT,
      replayWithin: direct.DIRECT_REPLAY_WINDOW,
      trustProxy: direct.DIRECT_TRUST_PROXY,
      maxBodyBytes: direct.DIRECT_MAX_BODY,
      confirmWithin: direct.DIRECT_CONFIRM_TIMEOUT,
      deliveryWithin: direct.DIRECT_DELIVERY_TIMEOUT,
      pollEvery: direct.DIRECT_POLL_INTERVAL
    },
    loginMaxAge: edges.LOGIN_MAX_AGE,
    trustedProxies,
    worker: {
      concurrency: worker.WORKER_CONCURRENCY,
      hotWalletBatch: worker.HOT_WALLET_BATCH,
      hotWalletParallel: worker.HOT_WALLET_PARALLEL,
      hotWalletBatchWait: worker.HOT_WALLET_BATCH_WAIT,
      quoteConcurrency: worker.FRAGMENT_QUOTE_CONCURRENCY,
      pollInterval: worker.WORKER_POLL_INTERVAL,
      orderLease: worker.ORDER_LEASE,
      deliveryWait: worker.ORDER_DELIVERY_WAIT,
      confirmWait: worker.PAYMENT_CONFIRM_WAIT,
      chainPollEvery: worker.PAYMENT_POLL_INTERVAL,
      paymentStaleAfter: worker.PAYMENT_STALE_AFTER,
      reconcileDelay: worker.ORDER_RECONCILE_DELAY,
      unknownRetryMax: worker.ORDER_UNKNOWN_RETRY_MAX,
      attentionAfter: worker.ORDER_ATTENTION_AFTER,
      attentionAttempts: worker.ORDER_ATTENTION_ATTEMPTS,
      retryDelay: worker.ORDER_RETRY_DELAY,
      maxAttempts: worker.ORDER_MAX_ATTEMPTS,
      paymentsInterval: worker.WORKER_PAYMENTS_INTERVAL,
      rematchWindow: worker.PAYMENT_REMATCH_WINDOW,
      notifyInterval: worker.WORKER_NOTIFY_INTERVAL,
      notifyBatch: worker.WORKER_NOTIFY_BATCH
    },
    vapid:
      Option.isSome(push.VAPID_PUBLIC_KEY) && Option.isSome(push.VAPID_PRIVATE_KEY)
        ? Option.some({ publicKey: push.VAPID_PUBLIC_KEY.value, privateKey: push.VAPID_PRIVATE_KEY.value })
        : Option.none(),
    vapidSubject: push.VAPID_SUBJECT,
    webhooksAllowLoopback: webhooks.WEBHOOKS_ALLOW_LOOPBACK,
    accountCaps: {
      openCardTopups: limits.CAP_OPEN_TOPUPS,
      openReviews: limits.CAP_OPEN_REVIEWS,
      topupsPerDay: limits.CAP_TOPUPS_PER_DAY,
      cancelsPerDay: limits.CAP_CANCELS_PER_DAY,
      uploadsPerDay: limits.CAP_UPLOADS_PER_DAY,
      ticketsPerDay: limits.CAP_TICKETS_PER_DAY,
      pushSubscriptions: limits.CAP_PUSH_SUBSCRIPTIONS
    },
    pushAllowedHosts: limits.PUSH_ALLOWED_HOSTS.split(",")
      .map((host) => host.trim().toLowerCase())
      .filter((host) => host !== "")
  } satisfies AppSettings
}
