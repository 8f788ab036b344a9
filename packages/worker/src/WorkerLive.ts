import { CoreServices } from "@resale/core/CoreServices.ts"
import { DirectPurchases } from "@resale/core/direct/DirectPurchases.ts"
import { DirectSettings } from "@resale/core/direct/DirectSettings.ts"
import { BatchedPurchases } from "@resale/core/wallet/BatchedPurchases.ts"
import { BatchedPurchaseSettings } from "@resale/core/wallet/BatchedPurchaseSettings.ts"
import { WalletBatches, WalletBatchSettings } from "@resale/core/wallet/WalletBatches.ts"
import { OrderWorkSettings } from "@resale/core/orders/OrderWorkSettings.ts"
import { NotificationDelivery, NotificationSettings } from "@resale/core/outbox/NotificationDelivery.ts"
import { TonPayerAccounts, TonWalletAccounts } from "@resale/ton/PayerAccount.ts"
import { WalletPurchases } from "@resale/core/direct/WalletPurchases.ts"
import { TonHotWallet } from "@resale/ton/TonHotWallet.ts"
import { HotWalletPurchases } from "@resale/core/wallet/HotWalletPurchases.ts"
import { Effect, Layer } from "effect"
import { Fulfilment } from "./fulfilment/Fulfilment.ts"
import { GiftFulfilment } from "@resale/core/orders/GiftFulfilment.ts"
import { OrderFulfilment } from "@resale/core/orders/OrderFulfilment.ts"
import { HotWalletGaugeLive } from "./fulfilment/HotWalletGaugeLive.ts"
import { FleetBeatLive } from "./FleetBeatLive.ts"
import { FleetBeats } from "@resale/core/status/FleetBeats.ts"
import { HotWalletStatus } from "@resale/core/wallet/HotWalletStatus.ts"
import { DirectReconcileJob } from "./reconcile/DirectReconcileJob.ts"
import { WalletQuoteWatchJob } from "./reconcile/WalletQuoteWatchJob.ts"
import { WorkerConfig } from "./WorkerConfig.ts"
import { WorkerJobs } from "./WorkerJobs.ts"
import { WebhookDispatch } from "@resale/core/webhooks/WebhookDispatch.ts"
import { WebhookFanOutLive } from "@resale/core/webhooks/WebhookFanOut.ts"
import { Webhooks } from "@resale/core/webhooks/Webhooks.ts"
import { WebhookPolicy } from "@resale/core/webhooks/WebhookTargets.ts"
import { HttpsWebhookSender } from "@resale/push/HttpsWebhookSender.ts"

/** Fragment's link call wants the paying wallet as TON Connect describes it (on the chain's network). */
export const PayerAccountsLive = TonPayerAccounts.layer

/** The direct surface's timings from the worker's settings (the records are shared through the database). */
const WorkerDirectSettings = Layer.unwrap(
  Effect.gen(function* () {
    const settings = yield* WorkerConfig
    return Layer.succeed(DirectSettings)({
      ...DirectSettings.defaultValue(),
      confirmWithin: settings.confirmWait,
      deliveryWithin: settings.deliveryWait,
      pollEvery: settings.chainPollEvery,
      staleAfter: settings.paymentStaleAfter
    })
  })
)

/**
 * The direct surface's use cases: here to reconcile open direct payments of customers' own wallets
 * (`DirectReconcileJob`) and to follow the wallet road's open quotes on chain (`WalletQuoteWatchJob`).
 */
export const WorkerDirectPurchases = Layer.mergeAll(
  DirectPurchases.layer.pipe(Layer.provide(PayerAccountsLive)),
  WalletPurchases.layer.pipe(Layer.provide(TonWalletAccounts))
).pipe(Layer.provide(WorkerDirectSettings))

/**
 * The service's hot wallet (the HotWallet port), from the worker's settings: resolved once over the
 * Blockchain port of the world; funded by the sandbox faucet in sandbox mode.
 */
export const HotWalletLive = Layer.unwrap(
  Effect.gen(function* () {
    const settings = yield* WorkerConfig
    return TonHotWallet.layerWith({
      phrase: settings.hotWalletMnemonic,
      version: settings.hotWalletVersion,
      sandbox: settings.sandbox
    })
  })
)

/**
 * Account orders paid from the hot wallet in batches (`HOT_WALLET_BATCH` per message; a Highload V3
 * has `HOT_WALLET_PARALLEL` messages in flight), timed by the worker's settings.
 */
export const WorkerBatchedPurchases = Layer.unwrap(
  Effect.gen(function* () {
    const settings = yield* WorkerConfig
    return BatchedPurchases.layer.pipe(
      Layer.provideMerge(WalletBatches.layer),
      Layer.provide(PayerAccountsLive),
      Layer.provide(
        Layer.succeed(WalletBatchSettings)({
          confirmWithin: settings.confirmWait,
          pollEvery: settings.chainPollEvery,
          parallel: settings.hotWalletParallel
        })
      ),
      Layer.provide(
        Layer.succeed(BatchedPurchaseSettings)({
          batchLimit: settings.hotWalletBatch,
          fillWithin: settings.hotWalletBatchWait,
          quoteConcurrency: settings.quoteConcurrency,
          deliveryWithin: settings.deliveryWait,
          pollEvery: settings.chainPollEvery
        })
      )
    )
  })
)

/** The core order lifecycle timed by the worker's settings. */
export const OrderWorkSettingsLive = Layer.effect(
  OrderWorkSettings,
  Effect.map(Effect.service(WorkerConfig), (settings) => ({
    lease: settings.orderLease,
    unknownRetryBase: settings.reconcileDelay,
    unknownRetryMax: settings.unknownRetryMax,
    attentionAfter: settings.attentionAfter,
    attentionAttempts: settings.attentionAttempts,
    retryBase: settings.retryDelay,
    maxAttempts: settings.maxAttempts,
    busyRetry: settings.pollInterval
  }))
)

/** Whom the core's notification delivery tells about operators' events, from the worker's settings. */
export const NotificationSettingsLive = Layer.effect(
  NotificationSettings,
  Effect.map(Effect.service(WorkerConfig), (settings) => ({
    operatorChatIds: settings.operatorChatIds,
    batch: settings.notifyBatch
  }))
)

/** Where webhooks may go, from the worker's settings (loopback in sandbox only). */
export const WebhookPolicyLive = Layer.effect(
  WebhookPolicy,
  Effect.map(Effect.service(WorkerConfig), (settings) => ({
    allowLoopback: settings.sandbox && settings.webhooksAllowLoopback,
    sandbox: settings.sandbox
  }))
)

/** Integrators' webhooks: the fan-out notification delivery calls, and the signed sends. */
export const WorkerWebhooks = Layer.mergeAll(WebhookFanOutLive, WebhookDispatch.layer).pipe(
  Layer.provideMerge(Webhooks.layer),
  Layer.provide(HttpsWebhookSender),
  Layer.provide(WebhookPolicyLive)
)

/**
 * Every worker service over the core use cases. Needs the storage ports (`@resale/store`, with
 * DirectPurchaseRecords), `Blockchain`, `Marketplace`, `GiftSender`, `Notifier`, `WorkerConfig`
 * and, in sandbox mode, optionally `SandboxFaucet` (the hot wallet's funding).
 */
export const WorkerServices = Layer.mergeAll(
  Fulfilment.layer,
  NotificationDelivery.layer,
  FleetBeats.layer.pipe(Layer.provide(HotWalletStatus.layer))
).pipe(
  Layer.provideMerge(WorkerWebhooks),
  Layer.provideMerge(OrderFulfilment.layer),
  Layer.provideMerge(GiftFulfilment.layer),
  Layer.provideMerge(HotWalletPurchases.layer),
  Layer.provideMerge(HotWalletLive),
  Layer.provideMerge(WorkerBatchedPurchases),
  Layer.provideMerge(WorkerDirectPurchases),
  Layer.provideMerge(CoreServices),
  Layer.provide(Layer.mergeAll(OrderWorkSettingsLive, NotificationSettingsLive))
)

/** All jobs over the GiftSender, Notifier, chain and marketplace in context, and `WorkerConfig`. */
export const WorkerJobsLive = Layer.mergeAll(
  WorkerJobs,
  DirectReconcileJob,
  WalletQuoteWatchJob,
  HotWalletGaugeLive,
  FleetBeatLive
).pipe(Layer.provide(WorkerServices))

/**
 * Every job, its settings from the one configuration (`AppConfig`). Provide the storage ports and the
 * outside world (`World.layer` of `@resale/world`: Blockchain, Marketplace, SandboxFaucet, GiftSender,
 * Notifier), the same layer values the other roots of the process use.
 */
export const WorkerLive = WorkerJobsLive.pipe(Layer.provide(WorkerConfig.layer))
