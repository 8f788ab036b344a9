import * as NodeServices from "@effect/platform-node/NodeServices"
import { PgMigrator } from "@effect/sql-pg"
import type { PgClient } from "@effect/sql-pg"
import { Effect, Layer } from "effect"
import type { SqlClient } from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import { checkMigrationGaps } from "./MigrationGaps.ts"
import Foundation from "./migrations/0001_foundation.ts"
import DirectPurchases from "./migrations/0002_direct_purchases.ts"
import DeferredPaymentTopup from "./migrations/0003_deferred_payment_topup.ts"
import OpenPayableKey from "./migrations/0004_open_payable_key.ts"
import ClosedPayableQuarantine from "./migrations/0005_closed_payable_quarantine.ts"
import OrderAttention from "./migrations/0006_order_attention.ts"
import WalletOrderIds from "./migrations/0009_wallet_order_ids.ts"
import DirectRateWindows from "./migrations/0010_direct_rate_windows.ts"
import MarketplaceSessions from "./migrations/0011_marketplace_sessions.ts"
import UsedLogins from "./migrations/0012_used_logins.ts"
import AccountCapsReceiptHashes from "./migrations/0013_account_caps_receipt_hashes.ts"
import IdempotencyEndpoint from "./migrations/0015_idempotency_endpoint.ts"
import Webhooks from "./migrations/0016_webhooks.ts"
import OrderDelivery from "./migrations/0020_order_delivery.ts"
import GiftRef from "./migrations/0021_gift_ref.ts"
import WalletBatches from "./migrations/0022_wallet_batches.ts"
import WalletParallelBatches from "./migrations/0023_wallet_parallel_batches.ts"
import WebhookFairness from "./migrations/0024_webhook_fairness.ts"
import WebhookEventIds from "./migrations/0025_webhook_event_ids.ts"
import HeldSinglePayments from "./migrations/0026_held_single_payments.ts"
import TokenFailures from "./migrations/0027_token_failures.ts"
import WorkerBeats from "./migrations/0028_worker_beats.ts"
import LentSessions from "./migrations/0029_lent_sessions.ts"
import WalletQuotes from "./migrations/0030_wallet_quotes.ts"

/** Every schema change by `<id>_<name>`, in order. Append only: a migration that ran somewhere is never edited. */
export const migrationRecord = {
  "0001_foundation": Foundation,
  "0002_direct_purchases": DirectPurchases,
  "0003_deferred_payment_topup": DeferredPaymentTopup,
  "0004_open_payable_key": OpenPayableKey,
  "0005_closed_payable_quarantine": ClosedPayableQuarantine,
  "0006_order_attention": OrderAttention,
  "0009_wallet_order_ids": WalletOrderIds,
  "0010_direct_rate_windows": DirectRateWindows,
  "0011_marketplace_sessions": MarketplaceSessions,
  "0012_used_logins": UsedLogins,
  "0013_account_caps_receipt_hashes": AccountCapsReceiptHashes,
  "0015_idempotency_endpoint": IdempotencyEndpoint,
  "0016_webhooks": Webhooks,
  "0020_order_delivery": OrderDelivery,
  "0021_gift_ref": GiftRef,
  "0022_wallet_batches": WalletBatches,
  "0023_wallet_parallel_batches": WalletParallelBatches,
  "0024_webhook_fairness": WebhookFairness,
  "0025_webhook_event_ids": WebhookEventIds,
  "0026_held_single_payments": HeldSinglePayments,
  "0027_token_failures": TokenFailures,
  "0028_worker_beats": WorkerBeats,
  "0029_lent_sessions": LentSessions,
  "0030_wallet_quotes": WalletQuotes
} as const

export const migrations = PgMigrator.fromRecord(migrationRecord)

/**
 * Brings the connected database up to date; safe to run from several processes at once (the migrator
 * locks). Stops first on a migration below the latest applied one that the database lacks (the
 * migrator would skip it).
 */
const run: Effect.Effect<
  ReadonlyArray<readonly [id: number, name: string]>,
  PgMigrator.MigrationError | SqlError,
  PgClient.PgClient | SqlClient
> = checkMigrationGaps(Object.keys(migrationRecord)).pipe(
  Effect.andThen(PgMigrator.run({ loader: migrations })),
  Effect.provide(NodeServices.layer)
)

/** Runs the migrations when built; provide the connection below it (`Layer.provideMerge`). */
const layer: Layer.Layer<never, PgMigrator.MigrationError | SqlError, PgClient.PgClient | SqlClient> =
  Layer.effectDiscard(run)

export const Migrations = { run, layer } as const
