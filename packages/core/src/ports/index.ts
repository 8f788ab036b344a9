/**
 * Every port of the core: what the adapters implement and the use cases call. Reached as
 * `@resale/core/ports` (or one port's file); the `@resale/core` index exports none of them, so a
 * root that takes a port names it, and `npm run depcheck` sees it (only wiring files may).
 */
export * from "./AccountActivity.ts"
export * from "./Blockchain.ts"
export * from "./BotUpdates.ts"
export * from "./DirectPurchaseRecords.ts"
export * from "./FleetStatus.ts"
export * from "./GiftPictures.ts"
export * from "./GiftSender.ts"
export * from "./HotWallet.ts"
export * from "./IdempotencyKeys.ts"
export * from "./IncomingPayments.ts"
export * from "./InfoLookups.ts"
export * from "./Ledger.ts"
export * from "./Marketplace.ts"
export * from "./MarketplaceSessions.ts"
export * from "./Notifier.ts"
export * from "./Orders.ts"
export * from "./Outbox.ts"
export * from "./PayerAccounts.ts"
export * from "./Pricing.ts"
export * from "./PushSubscriptions.ts"
export * from "./Receipts.ts"
export * from "./ReportFigures.ts"
export * from "./Sessions.ts"
export * from "./Tickets.ts"
export * from "./Topups.ts"
export * from "./Transactor.ts"
export * from "./Users.ts"
export * from "./WalletPayments.ts"
export * from "./WebhookEndpoints.ts"
export * from "./WebhookSender.ts"

// Re-exported by several ports: the money and orders modules' own.
export { Nanoton } from "../money/Nanoton.ts"
export { PremiumMonths } from "../orders/Order.ts"
