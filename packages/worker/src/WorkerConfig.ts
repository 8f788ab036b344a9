import { AppConfig, type AppSettings, type WorkerTimings } from "@resale/config"
import type { WalletVersion } from "@resale/core/ports/Blockchain.ts"
import { Context, Duration, Effect, Layer, Option, type Redacted } from "effect"

/**
 * Settings of the worker, read and validated once at start (every variable: .env.example, docs/operations.md).
 * Durations accept Effect's duration text ("5 seconds", "2 minutes").
 */
export interface WorkerSettings extends WorkerTimings {
  /** Sandbox: the hot wallet is generated and funded from the sandbox faucet, gifts are simulated. */
  readonly sandbox: boolean
  readonly dataDir: string
  /** The service's hot wallet that pays Fragment for stars and premium (required outside sandbox). */
  readonly hotWalletMnemonic: Option.Option<Redacted.Redacted<string>>
  /** The hot wallet's contract (`HOT_WALLET_VERSION`); None: the phrase's funded one (sandbox: v5r1). */
  readonly hotWalletVersion: Option.Option<WalletVersion>
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
  /** Sandbox only: integrators' webhooks may go to loopback addresses over http (local testing). */
  readonly webhooksAllowLoopback: boolean
}

/** The worker's view of the one configuration (`@resale/config`). */
export const workerSettings = (app: AppSettings): WorkerSettings => ({
  sandbox: app.sandbox,
  dataDir: app.dataDir,
  hotWalletMnemonic: app.hotWalletMnemonic,
  hotWalletVersion: app.hotWalletVersion,
  ...app.worker,
  botToken: app.botToken,
  telegramApiUrl: app.telegramApiUrl,
  operatorChatIds: app.operatorChatIds,
  vapid: app.vapid,
  vapidSubject: app.vapidSubject,
  publicUrl: app.publicUrl,
  giftSenders: app.giftSenders,
  webhooksAllowLoopback: app.webhooksAllowLoopback
})

export class WorkerConfig extends Context.Service<WorkerConfig, WorkerSettings>()("worker/WorkerConfig") {
  /** From the one configuration (every variable, the mode and production checks live in `@resale/config`). */
  static readonly layer = Layer.effect(
    WorkerConfig,
    Effect.map(AppConfig, (app) => WorkerConfig.of(workerSettings(app)))
  )

  /** Fixed, fast settings for tests. */
  static readonly layerTest = (overrides: Partial<WorkerSettings> = {}) =>
    Layer.succeed(WorkerConfig)(
      WorkerConfig.of({
        sandbox: true,
        dataDir: ".data/test",
        hotWalletMnemonic: Option.none(),
        hotWalletVersion: Option.none(),
        concurrency: 2,
        hotWalletBatch: 255,
        hotWalletParallel: 4,
        hotWalletBatchWait: Duration.seconds(5),
        quoteConcurrency: 8,
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
        retryDelay: Duration.seconds(30),
        maxAttempts: 8,
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
        webhooksAllowLoopback: false,
        ...overrides
      })
    )
}
