import type { AccountCapsShape } from "@resale/core/caps/CapSettings.ts"
import type { Duration, Option, Redacted } from "effect"

/** Which entry reads the settings: each needs its own production secrets. */
export type Role = "server" | "worker" | "cli"

export interface ToncenterSettings {
  readonly endpoint: string
  readonly apiKey: Option.Option<Redacted.Redacted<string>>
  readonly network: "mainnet" | "testnet"
  readonly timeout: Duration.Duration
}

export interface FragmentSettings {
  readonly baseUrl: string
  readonly cookies: Redacted.Redacted<string>
  /** FRAGMENT_SESSIONS with their FRAGMENT_COOKIES_<NAME> */
  readonly moreSessions: ReadonlyArray<{ readonly label: string; readonly cookies: Redacted.Redacted<string> }>
  readonly proxy: Option.Option<Redacted.Redacted<string>>
  readonly timeout: Duration.Duration
  readonly sessionHold: Duration.Duration
  readonly sessionWait: Duration.Duration
}

export interface TelegramAccounts {
  readonly apiId: number
  readonly apiHash: Redacted.Redacted<string>
  readonly sessions: ReadonlyArray<{ readonly name: string; readonly session: Redacted.Redacted<string> }>
}

/** The worker's loops, leases and limits (durations accept effect's duration text, "5 seconds"). */
export interface WorkerTimings {
  /** Orders processed at once by this worker. */
  readonly concurrency: number
  /** Most account-order payments one message of the hot wallet carries (`HOT_WALLET_BATCH`); 1: one at a time. */
  readonly hotWalletBatch: number
  /** Messages of a Highload Wallet V3 in flight at once (`HOT_WALLET_PARALLEL`); a seqno wallet has one. */
  readonly hotWalletParallel: number
  /** About a block: how long a free Highload V3 slot may hold orders for a fuller batch (`HOT_WALLET_BATCH_WAIT`; core's `SendingRule.ts`). */
  readonly hotWalletBatchWait: Duration.Duration
  /** Marketplace invoices asked for at once (`FRAGMENT_QUOTE_CONCURRENCY`). */
  readonly quoteConcurrency: number
  /** How long an idle fulfilment loop waits before it looks for due orders again. */
  readonly pollInterval: Duration.Duration
  /** A `processing` order whose worker has not signalled for this long is resumed by another worker. */
  readonly orderLease: Duration.Duration
  /** After paying, how long to poll the marketplace for delivery before leaving it to reconciliation. */
  readonly deliveryWait: Duration.Duration
  /** After sending a payment, how long to look for it on chain before calling its outcome unknown. */
  readonly confirmWait: Duration.Duration
  /** Pause between two looks at the chain or the marketplace while paying. */
  readonly chainPollEvery: Duration.Duration
  /** An in-flight payment record untouched this long belongs to a dead process and is reconciled. */
  readonly paymentStaleAfter: Duration.Duration
  /**
   * First delay before an order with an unknown outcome is looked at again; it doubles with every
   * further unknown check (jittered), up to `unknownRetryMax`.
   */
  readonly reconcileDelay: Duration.Duration
  readonly unknownRetryMax: Duration.Duration
  /**
   * An order whose delivery stays unknown for at least `attentionAfter` AND `attentionAttempts`
   * checks stops retrying and waits for an operator (`needs_attention`, bot message to the operators).
   */
  readonly attentionAfter: Duration.Duration
  readonly attentionAttempts: number
  /** First delay before an order that paid nothing is tried again (`ORDER_RETRY_DELAY`, doubling). */
  readonly retryDelay: Duration.Duration
  /** Attempts before such an order fails and is refunded (`ORDER_MAX_ATTEMPTS`). */
  readonly maxAttempts: number
  /** Period of the payments job (re-match unmatched payments, expire top-ups). */
  readonly paymentsInterval: Duration.Duration
  /** An unmatched payment may match a top-up created up to this long after it arrived. */
  readonly rematchWindow: Duration.Duration
  /** Period of the notifications job when the outbox was empty. */
  readonly notifyInterval: Duration.Duration
  readonly notifyBatch: number
}

export interface DirectLimits {
  readonly ratePerMinute: number
  readonly rateBurst: number
  readonly rateShared: boolean
  readonly derivations: number
  readonly derivationQueue: number
  readonly derivationWait: Duration.Duration
  readonly answerWithin: Duration.Duration
  readonly replayWithin: Duration.Duration
  readonly trustProxy: boolean
  readonly maxBodyBytes: number
  readonly confirmWithin: Duration.Duration
  readonly deliveryWithin: Duration.Duration
  readonly pollEvery: Duration.Duration
}

/**
 * The whole configuration of one process, read and checked once at start (see `Catalogue.ts` for
 * every variable). `sandbox` is THE mode: nothing else decides it.
 */
export interface AppSettings {
  readonly role: Role
  readonly sandbox: boolean
  /** Why this mode, e.g. "SANDBOX=true" or "no production setting given". */
  readonly modeReason: string
  readonly host: string
  readonly port: number
  readonly publicUrl: string
  readonly dataDir: string
  readonly inProcessWorker: boolean
  readonly logRequests: boolean
  /** Bearer token of `/metrics` (`METRICS_TOKEN`); none: `/metrics` is off outside sandbox. */
  readonly metricsToken: Option.Option<Redacted.Redacted<string>>
  /** `npm run worker` serves its probes on HOST:this port (`WORKER_PROBE_PORT`); none: no probes. */
  readonly workerProbePort: Option.Option<number>
  readonly databaseUrl: Option.Option<Redacted.Redacted<string>>
  readonly pgPoolMax: number
  readonly adminToken: Redacted.Redacted<string>
  /** True when ADMIN_TOKEN was unset in sandbox mode and a fresh one was generated (it is then printed). */
  readonly adminTokenGenerated: boolean
  readonly sessionSecret: Redacted.Redacted<string>
  /** Path secret of the bot webhook (`TELEGRAM_WEBHOOK_SECRET`, else derived from the session secret). */
  readonly webhookSecret: Redacted.Redacted<string>
  /**
   * The webhook's `secret_token` (`TELEGRAM_WEBHOOK_HEADER_SECRET`, else derived with another label):
   * never the path secret, which request lines and proxies' logs may show.
   */
  readonly webhookHeaderSecret: Redacted.Redacted<string>
  /**
   * Every secret text of this configuration (catalogue secrets, their parts, derived keys), for the log
   * scrubber. A function, so the `started` line (which shows settings) does not list them.
   */
  readonly secretTexts: () => ReadonlyArray<string>
  /** None in sandbox mode without a token: no Bot API call is made. */
  readonly botToken: Option.Option<Redacted.Redacted<string>>
  readonly botUsername: Option.Option<string>
  readonly telegramApiUrl: string
  readonly operatorChatIds: ReadonlyArray<number>
  readonly giftSenders: ReadonlyArray<string>
  /** MTProto accounts of the gift senders (production with TELEGRAM_API_ID). */
  readonly telegramAccounts: Option.Option<TelegramAccounts>
  readonly paymentCard: string | null
  readonly hotWalletMnemonic: Option.Option<Redacted.Redacted<string>>
  /** `HOT_WALLET_VERSION`; None: whichever wallet of the phrase is funded. */
  readonly hotWalletVersion: Option.Option<"v5r1" | "v4r2" | "highload-v3">
  /** The shared sandbox chain's time between blocks (`SANDBOX_BLOCK_INTERVAL`); zero: messages run at once. */
  readonly sandboxBlockInterval: Duration.Duration
  /** Cookie sessions the sandbox world's Fragment simulator offers (`SANDBOX_FRAGMENT_SESSIONS`). */
  readonly sandboxFragmentSessions: number
  /** The sandbox's test recipients: `sandbox_timeout`'s search delay and `sandbox_late`'s delivery delay. */
  readonly sandboxMagic: { readonly slowSearch: Duration.Duration; readonly lateDelivery: Duration.Duration }
  /** None in sandbox mode (the shared sandbox chain; TONCENTER_URL is refused there). */
  readonly toncenter: Option.Option<ToncenterSettings>
  /** How long a purchase may keep a Fragment session, and wait for one (also the sandbox world's). */
  readonly fragmentSessions: { readonly hold: Duration.Duration; readonly wait: Duration.Duration }
  /** None in sandbox mode (the shared Fragment simulator; FRAGMENT_COOKIES is refused there). */
  readonly fragment: Option.Option<FragmentSettings>
  readonly direct: DirectLimits
  /** How long a Telegram sign-in payload is accepted (`LOGIN_MAX_AGE`). */
  readonly loginMaxAge: Duration.Duration
  /** Reverse proxies whose X-Forwarded-For hops are skipped (`TRUSTED_PROXIES`: addresses or CIDR ranges). */
  readonly trustedProxies: ReadonlyArray<string>
  readonly worker: WorkerTimings
  readonly vapid: Option.Option<{ readonly publicKey: string; readonly privateKey: Redacted.Redacted<string> }>
  readonly vapidSubject: string
  /** Sandbox only (`WEBHOOKS_ALLOW_LOOPBACK`): webhooks may target loopback addresses over http. */
  readonly webhooksAllowLoopback: boolean
  /** The core's per-account caps (`CAP_*`). */
  readonly accountCaps: AccountCapsShape
  /** Hosts a web push subscription may point to (`PUSH_ALLOWED_HOSTS`, lower case; `*.` any subdomain). */
  readonly pushAllowedHosts: ReadonlyArray<string>
}
