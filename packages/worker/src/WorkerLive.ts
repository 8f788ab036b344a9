import { CoreServices } from "@resale/core/CoreServices.ts"
import { DirectPurchases } from "@resale/core/direct/DirectPurchases.ts"
import { DirectSettings } from "@resale/core/direct/DirectSettings.ts"
import { WalletPurchases } from "@resale/core/direct/WalletPurchases.ts"
import { PayerAccounts } from "@resale/core/direct/PayerAccounts.ts"
import { OrderWorkSettings } from "@resale/core/orders/OrderWorkSettings.ts"
import { Blockchain } from "@resale/core/ports/Blockchain.ts"
import { networkGlobalIdOf, payerAccount } from "@resale/ton/PayerAccount.ts"
import { Effect, Layer } from "effect"
import { Fulfilment } from "./fulfilment/Fulfilment.ts"
import { GiftFulfilment } from "./fulfilment/GiftFulfilment.ts"
import { HotWallet } from "./fulfilment/HotWallet.ts"
import { MarketplaceFulfilment } from "./fulfilment/MarketplaceFulfilment.ts"
import { GiftSenderLive } from "./gifts/GiftSenderLive.ts"
import { NotificationDelivery } from "./notify/NotificationDelivery.ts"
import { NotifierLive } from "./notify/NotifierLive.ts"
import { DirectReconcileJob } from "./reconcile/DirectReconcileJob.ts"
import { WorkerConfig } from "./WorkerConfig.ts"
import { WorkerJobs } from "./WorkerJobs.ts"

/** Fragment's link call wants the paying wallet as TON Connect describes it. */
export const PayerAccountsLive = Layer.effect(
  PayerAccounts,
  Effect.gen(function*() {
    const chain = yield* Blockchain
    return PayerAccounts.of({ describe: (wallet) => Effect.sync(() => payerAccount(wallet, networkGlobalIdOf(chain.network))) })
  })
)

/**
 * The worker's wallet-payment use cases, timed by its settings (the records are shared through the
 * database): `WalletPurchases` pays account orders from the hot wallet; `DirectPurchases` is here to
 * reconcile open payments of both kinds.
 */
export const WorkerDirectPurchases = Layer.unwrap(Effect.gen(function*() {
  const settings = yield* WorkerConfig
  return Layer.mergeAll(DirectPurchases.layer, WalletPurchases.layer).pipe(
    Layer.provide(PayerAccountsLive),
    Layer.provide(Layer.succeed(DirectSettings)({
      ...DirectSettings.defaultValue(),
      confirmWithin: settings.confirmWait,
      deliveryWithin: settings.deliveryWait,
      pollEvery: settings.chainPollEvery,
      staleAfter: settings.paymentStaleAfter
    }))
  )
}))

/** The core order lifecycle timed by the worker's settings. */
export const OrderWorkSettingsLive = Layer.effect(
  OrderWorkSettings,
  Effect.map(Effect.service(WorkerConfig), (settings) => ({
    lease: settings.orderLease,
    unknownRetryBase: settings.reconcileDelay,
    unknownRetryMax: settings.unknownRetryMax,
    attentionAfter: settings.attentionAfter,
    attentionAttempts: settings.attentionAttempts
  }))
)

/**
 * Every worker service over the core use cases. Needs the storage ports (`@resale/store`, with
 * DirectPurchaseRecords), `Blockchain`, `Marketplace`, `GiftSender`, `Notifier`, `WorkerConfig`
 * and, in sandbox mode, optionally `SandboxBlockchain` (the hot wallet's faucet).
 */
export const WorkerServices = Layer.mergeAll(Fulfilment.layer, NotificationDelivery.layer).pipe(
  Layer.provideMerge(Layer.mergeAll(MarketplaceFulfilment.layer, GiftFulfilment.layer)),
  Layer.provideMerge(HotWallet.layer),
  Layer.provideMerge(WorkerDirectPurchases),
  Layer.provideMerge(CoreServices),
  Layer.provide(OrderWorkSettingsLive)
)

/** All jobs over explicit GiftSender, Notifier and settings (tests, or a root that builds its own). */
export const WorkerJobsLive = Layer.mergeAll(WorkerJobs, DirectReconcileJob).pipe(Layer.provide(WorkerServices))

/**
 * All jobs with GiftSender and Notifier built from the settings in `config`. Provide the storage
 * ports, `Blockchain`, `Marketplace` (and `SandboxBlockchain` in sandbox mode).
 */
export const makeWorkerLive = <E, R>(config: Layer.Layer<WorkerConfig, E, R>) =>
  WorkerJobsLive.pipe(
    Layer.provide(Layer.mergeAll(GiftSenderLive, NotifierLive)),
    Layer.provide(config)
  )

/**
 * All jobs with the Notifier built from `config`, and the GiftSender left to the caller: a root that
 * runs the gift catalogue too gives both the same one (one Telegram client per sender account).
 */
export const makeWorkerLiveOverGiftSender = <E, R>(config: Layer.Layer<WorkerConfig, E, R>) =>
  WorkerJobsLive.pipe(Layer.provide(NotifierLive), Layer.provide(config))

/** `makeWorkerLive` with the settings read from the environment (`WorkerConfig.layer`). */
export const WorkerLive = makeWorkerLive(WorkerConfig.layer)
