/**
 * The worker: fulfilment of account orders, payment matching and top-up expiry, notifications.
 * - `WorkerLive`: every job, settings from the environment (`WorkerConfig.layer`); provide the
 *   storage ports, `Blockchain`, `Marketplace` (and `SandboxBlockchain` in sandbox mode).
 * - `makeWorkerLive(configLayer)`: the same with other settings; `WorkerJobsLive` with your own
 *   `GiftSender` and `Notifier` too.
 */
export { WorkerConfig, type WorkerSettings } from "./WorkerConfig.ts"
export { makeWorkerLive, PayerAccountsLive, WorkerDirectPurchases, WorkerJobsLive, WorkerLive, WorkerServices } from "./WorkerLive.ts"
export { WorkerJobs } from "./WorkerJobs.ts"
export { Fulfilment } from "./fulfilment/Fulfilment.ts"
export { HotWallet, sandboxHotWalletPhrase } from "./fulfilment/HotWallet.ts"
export { GiftSenderLive } from "./gifts/GiftSenderLive.ts"
export { makeMtcuteGiftSender, MtcuteGiftSender } from "@resale/telegram/MtcuteGiftSender.ts"
export { makeSimulatedGiftSender, SANDBOX_GIFTS, SimulatedGiftSender } from "@resale/telegram/SimulatedGiftSender.ts"
export { NotificationDelivery } from "./notify/NotificationDelivery.ts"
export { NotifierLive } from "./notify/NotifierLive.ts"
export { resolveVapidKeys, type VapidKeys } from "@resale/push/VapidKeys.ts"
export { paymentsRound, rematchRound } from "./payments/PaymentsJob.ts"
export { paymentSeenOn, SandboxWorld, sandboxMarketplace } from "./SandboxWorld.ts"
