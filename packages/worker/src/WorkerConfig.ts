import { Config, Context, Duration, Effect, Layer, Option, Redacted } from "effect"

/**
 * Settings of the worker, read and validated once at start (see the README for every variable).
 * Durations accept Effect's duration text ("5 seconds", "2 minutes").
 */
export interface WorkerSettings {
  /** Sandbox: the hot wallet is generated and funded from the sandbox faucet, gifts are simulated. */
  readonly sandbox: boolean
  readonly dataDir: string
  /** The service's hot wallet that pays Fragment for stars and premium (required outside sandbox). */
  readonly hotWalletMnemonic: Option.Option<Redacted.Redacted<string>>
  /** Orders processed at once by this worker. */
  readonly concurrency: number
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
  /** Period of the payments job (re-match unmatched payments, expire top-ups). */
  readonly paymentsInterval: Duration.Duration
  /** An unmatched payment may match a top-up created up to this long after it arrived. */
  readonly rematchWindow: Duration.Duration
  /** Period of the notifications job when the outbox was empty. */
  readonly notifyInterval: Duration.Duration
  readonly notifyBatch: number
  readonly botToken: Option.Option<Redacted.Redacted<string>>
  readonly telegramApiUrl: string
  /** Bot chats that receive operator notifications (new receipts, unmatched payments, tickets). */
  readonly operatorChatIds: ReadonlyArray<number>
  readonly vapid: Option.Option<{ readonly publicKey: string; readonly privateKey: Redacted.Redacted<string> }>
  /** VAPID `sub` claim: a mailto: or https: contact of the operator. */
  readonly vapidSubject: string
  readonly publicUrl: string
  /** Names of the gift sender accounts; the first is the default. */
  readonly giftSenders: ReadonlyArray<string>
}

const names = (text: string): Array<string> =>
  text.split(",").map((s) => s.trim()).filter((s) => s.length > 0)

const chatIds = (text: string): Array<number> =>
  names(text).map(Number).filter((n) => Number.isSafeInteger(n) && n !== 0)

export class WorkerConfig extends Context.Service<WorkerConfig, WorkerSettings>()("worker/WorkerConfig") {
  /** From the environment. */
  static readonly layer = Layer.effect(
    WorkerConfig,
    Effect.gen(function*() {
      const hotWalletMnemonic = yield* Config.option(Config.Redacted("HOT_WALLET_MNEMONIC"))
      const sandboxSetting = yield* Config.option(Config.Boolean("SANDBOX"))
      const sandbox = Option.getOrElse(sandboxSetting, () => Option.isNone(hotWalletMnemonic))
      const vapidPublic = yield* Config.option(Config.String("VAPID_PUBLIC_KEY"))
      const vapidPrivate = yield* Config.option(Config.Redacted("VAPID_PRIVATE_KEY"))
      const duration = (name: string, fallback: Duration.Input) =>
        Config.Duration(name).pipe(Config.withDefault(Duration.fromInputUnsafe(fallback)))
      return WorkerConfig.of({
        sandbox,
        dataDir: yield* Config.String("DATA_DIR").pipe(Config.withDefault(".data")),
        hotWalletMnemonic,
        concurrency: yield* Config.Int("WORKER_CONCURRENCY").pipe(Config.withDefault(4)),
        pollInterval: yield* duration("WORKER_POLL_INTERVAL", "1 second"),
        orderLease: yield* duration("ORDER_LEASE", "60 seconds"),
        deliveryWait: yield* duration("ORDER_DELIVERY_WAIT", "60 seconds"),
        confirmWait: yield* duration("PAYMENT_CONFIRM_WAIT", "75 seconds"),
        chainPollEvery: yield* duration("PAYMENT_POLL_INTERVAL", "1500 millis"),
        paymentStaleAfter: yield* duration("PAYMENT_STALE_AFTER", "3 minutes"),
        reconcileDelay: yield* duration("ORDER_RECONCILE_DELAY", "30 seconds"),
        unknownRetryMax: yield* duration("ORDER_UNKNOWN_RETRY_MAX", "10 minutes"),
        attentionAfter: yield* duration("ORDER_ATTENTION_AFTER", "30 minutes"),
        attentionAttempts: yield* Config.Int("ORDER_ATTENTION_ATTEMPTS").pipe(Config.withDefault(8)),
        paymentsInterval: yield* duration("WORKER_PAYMENTS_INTERVAL", "30 seconds"),
        rematchWindow: yield* duration("PAYMENT_REMATCH_WINDOW", "15 minutes"),
        notifyInterval: yield* duration("WORKER_NOTIFY_INTERVAL", "2 seconds"),
        notifyBatch: yield* Config.Int("WORKER_NOTIFY_BATCH").pipe(Config.withDefault(20)),
        botToken: yield* Config.option(Config.Redacted("TELEGRAM_BOT_TOKEN")),
        telegramApiUrl: (yield* Config.String("TELEGRAM_API_URL").pipe(Config.withDefault("https://api.telegram.org")))
          .replace(/\/+$/, ""),
        operatorChatIds: chatIds(yield* Config.String("OPERATOR_CHAT_IDS").pipe(Config.withDefault(""))),
        vapid: Option.isSome(vapidPublic) && Option.isSome(vapidPrivate)
          ? Option.some({ publicKey: vapidPublic.value, privateKey: vapidPrivate.value })
          : Option.none(),
        vapidSubject: yield* Config.String("VAPID_SUBJECT").pipe(Config.withDefault("mailto:operator@localhost")),
        publicUrl: (yield* Config.String("PUBLIC_URL").pipe(Config.withDefault("http://127.0.0.1:8000"))).replace(/\/+$/, ""),
        giftSenders: names(yield* Config.String("GIFT_SENDERS").pipe(Config.withDefault("user,girl")))
      })
    })
  )

  /** Fixed, fast settings for tests. */
  static readonly layerTest = (overrides: Partial<WorkerSettings> = {}) =>
    Layer.succeed(WorkerConfig)(WorkerConfig.of({
      sandbox: true,
      dataDir: ".data/test",
      hotWalletMnemonic: Option.none(),
      concurrency: 2,
      pollInterval: Duration.millis(50),
      orderLease: Duration.seconds(5),
      deliveryWait: Duration.seconds(5),
      confirmWait: Duration.seconds(20),
      chainPollEvery: Duration.millis(50),
      paymentStaleAfter: Duration.seconds(10),
      reconcileDelay: Duration.millis(200),
      unknownRetryMax: Duration.seconds(2),
      attentionAfter: Duration.minutes(30),
      attentionAttempts: 8,
      paymentsInterval: Duration.millis(200),
      rematchWindow: Duration.minutes(15),
      notifyInterval: Duration.millis(50),
      notifyBatch: 20,
      botToken: Option.none(),
      telegramApiUrl: "http://127.0.0.1:9",
      operatorChatIds: [],
      vapid: Option.none(),
      vapidSubject: "mailto:operator@localhost",
      publicUrl: "http://127.0.0.1:8000",
      giftSenders: ["user", "girl"],
      ...overrides
    }))
}
