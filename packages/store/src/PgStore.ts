import type {
  AccountActivity,
  BotUpdates,
  DirectPurchaseRecords,
  IdempotencyKeys,
  IncomingPayments,
  InfoLookups,
  Ledger,
  FleetStatus,
  MarketplaceSessions,
  Orders,
  Outbox,
  Pricing,
  Throttles,
  PushSubscriptions,
  Receipts,
  ReportFigures,
  Sessions,
  Tickets,
  Topups,
  Transactor,
  Users
} from "@resale/core/ports"
import { Layer } from "effect"
import type { SqlClient } from "effect/sql/SqlClient"
import type { WebhookEndpoints } from "@resale/core/ports/WebhookEndpoints.ts"
import type { WalletPayments } from "@resale/core/ports/WalletPayments.ts"
import { PgWalletPayments } from "./PgWalletPayments.ts"
import type { WalletQuotes } from "@resale/core/ports/WalletQuotes.ts"
import { PgWalletQuotes } from "./PgWalletQuotes.ts"
import { PgAccountActivity } from "./PgAccountActivity.ts"
import { PgBotUpdates } from "./PgBotUpdates.ts"
import { PgDirectPurchaseRecords } from "./PgDirectPurchaseRecords.ts"
import { PgFleetStatus } from "./PgFleetStatus.ts"
import { PgIdempotencyKeys } from "./PgIdempotencyKeys.ts"
import { PgIncomingPayments } from "./PgIncomingPayments.ts"
import { PgInfoLookups } from "./PgInfoLookups.ts"
import { PgLedger } from "./PgLedger.ts"
import { PgMarketplaceSessions } from "./PgMarketplaceSessions.ts"
import { PgOrders } from "./PgOrders.ts"
import { PgOutbox } from "./PgOutbox.ts"
import { PgPricing } from "./PgPricing.ts"
import { PgThrottles } from "./PgThrottles.ts"
import { PgPushSubscriptions } from "./PgPushSubscriptions.ts"
import { PgReceipts } from "./PgReceipts.ts"
import { PgReportFigures } from "./PgReportFigures.ts"
import { PgSessions } from "./PgSessions.ts"
import { PgTickets } from "./PgTickets.ts"
import { PgTopups } from "./PgTopups.ts"
import { PgTransactor } from "./PgTransactor.ts"
import { PgUsers } from "./PgUsers.ts"
import { PgWebhookEndpoints } from "./PgWebhookEndpoints.ts"

/** Every storage port the core declares. */
export type StorePorts =
  | Transactor
  | Users
  | Ledger
  | Topups
  | IncomingPayments
  | Orders
  | Tickets
  | Pricing
  | Throttles
  | IdempotencyKeys
  | Sessions
  | BotUpdates
  | PushSubscriptions
  | Outbox
  | InfoLookups
  | Receipts
  | DirectPurchaseRecords
  | AccountActivity
  | MarketplaceSessions
  | FleetStatus
  | WebhookEndpoints
  | ReportFigures
  | WalletPayments
  | WalletQuotes

/** Every storage port over one `SqlClient` (provide a connection: `PgConnection`, `EmbeddedPostgres`). */
const layer: Layer.Layer<StorePorts, never, SqlClient> = Layer.mergeAll(
  PgTransactor.layer,
  PgUsers.layer,
  PgLedger.layer,
  PgTopups.layer,
  PgIncomingPayments.layer,
  PgOrders.layer,
  PgTickets.layer,
  PgPricing.layer,
  PgThrottles.layer,
  PgIdempotencyKeys.layer,
  PgSessions.layer,
  PgBotUpdates.layer,
  PgPushSubscriptions.layer,
  PgOutbox.layer,
  PgInfoLookups.layer,
  PgReceipts.layer,
  PgDirectPurchaseRecords.layer,
  PgAccountActivity.layer,
  PgMarketplaceSessions.layer,
  PgFleetStatus.layer,
  PgWebhookEndpoints.layer,
  PgReportFigures.layer,
  PgWalletPayments.layer,
  PgWalletQuotes.layer
)

export const PgStore = { layer } as const
