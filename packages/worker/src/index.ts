/**
 * The worker: fulfilment of account orders, payment matching and top-up expiry, notifications.
 * - `WorkerLive`: every job, settings from the one configuration (`AppConfig`); provide the storage
 *   ports and the outside world (`World.layer` of `@resale/world`).
 * - `WorkerJobsLive`: the same with your own `WorkerConfig` (tests).
 */
export { WorkerConfig, type WorkerSettings } from "./WorkerConfig.ts"
export { PayerAccountsLive, WorkerDirectPurchases, WorkerJobsLive, WorkerLive, WorkerServices } from "./WorkerLive.ts"
export { WorkerJobs } from "./WorkerJobs.ts"
export { Fulfilment } from "./fulfilment/Fulfilment.ts"
export { NotificationDelivery } from "@resale/core/outbox/NotificationDelivery.ts"
export { paymentsRound, rematchRound } from "./payments/PaymentsJob.ts"
