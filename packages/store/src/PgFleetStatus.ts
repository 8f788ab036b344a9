import { OrderId } from "@resale/core/ids.ts"
import { WalletVersion } from "@resale/core/ports/Blockchain.ts"
import { FleetStatus, type WorkerBeat } from "@resale/core/ports/FleetStatus.ts"
import type { HotWalletReport } from "@resale/core/wallet/HotWalletStatus.ts"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { DateColumn, IntColumn, intAs, NanotonColumn, rowDecoder } from "./Rows.ts"
import { orDieSql } from "./SqlValues.ts"

/** The hot wallet as a worker read it, kept as jsonb (the balance as decimal text: exact to the nanoton). */
const HotWalletJson = Schema.Union([
  Schema.Struct({
    funded: Schema.Literal(true),
    version: WalletVersion,
    address: Schema.String,
    state: Schema.Literals(["active", "uninit", "frozen"]),
    balance: NanotonColumn,
    syncTime: Schema.optionalKey(Schema.Int)
  }),
  Schema.Struct({
    funded: Schema.Literal(false),
    fundAt: Schema.Array(Schema.Struct({ version: WalletVersion, address: Schema.String }))
  })
])

const toJson = (report: HotWalletReport): unknown =>
  report.funded ? { ...report, balance: report.balance.toString() } : report

const sessionRows = rowDecoder(
  "marketplace_sessions",
  Schema.Struct({
    session: Schema.String,
    held_until: Schema.NullOr(DateColumn),
    accepted: IntColumn,
    refused: IntColumn,
    unsent: IntColumn,
    last_purchase_at: Schema.NullOr(DateColumn)
  })
)

const queueRows = rowDecoder(
  "orders",
  Schema.Struct({
    queued: IntColumn,
    processing: IntColumn,
    needs_attention: IntColumn,
    oldest_id: Schema.NullOr(intAs(OrderId)),
    oldest_since: Schema.NullOr(DateColumn)
  })
)

const countRows = rowDecoder("wallet_batches", Schema.Struct({ n: IntColumn }))

const beatRows = rowDecoder(
  "worker_beats",
  Schema.Struct({
    worker: Schema.String,
    started_at: DateColumn,
    beat_at: DateColumn,
    hot_wallet: Schema.NullOr(HotWalletJson),
    wallet_read_at: Schema.NullOr(DateColumn)
  })
)

/** `FleetStatus` over the shared tables: read-only aggregates, and one upsert per worker beat. */
export const PgFleetStatus = {
  layer: Layer.effect(
    FleetStatus,
    Effect.gen(function* () {
      const sql = yield* SqlClient

      // Sessions that never bought still show (LEFT JOIN); purchases of sessions no longer configured do not.
      const sessions = (now: Date) =>
        sql`
          SELECT s.session,
                 CASE WHEN s.holder IS NOT NULL AND s.held_until > ${now} THEN s.held_until END AS held_until,
                 count(p.req_id) FILTER (WHERE p.confirm = 'accepted') AS accepted,
                 count(p.req_id) FILTER (WHERE p.confirm = 'refused') AS refused,
                 count(p.req_id) FILTER (WHERE p.confirm = 'unsent') AS unsent,
                 (SELECT max(created_at) FROM marketplace_purchases WHERE session = s.session) AS last_purchase_at
            FROM marketplace_sessions s
            LEFT JOIN marketplace_purchases p
              ON p.session = s.session AND p.created_at > ${new Date(now.getTime() - 3_600_000)}
           GROUP BY s.session, s.holder, s.held_until
           ORDER BY s.session`.pipe(
          Effect.flatMap(sessionRows.all),
          Effect.map((rows) =>
            rows.map((row) => ({
              session: row.session,
              heldUntil: row.held_until,
              accepted: row.accepted,
              refused: row.refused,
              unsent: row.unsent,
              lastPurchaseAt: row.last_purchase_at
            }))
          ),
          orDieSql
        )

      const queue = sql`
        SELECT count(*) FILTER (WHERE status = 'queued') AS queued,
               count(*) FILTER (WHERE status = 'processing') AS processing,
               count(*) FILTER (WHERE status = 'needs_attention') AS needs_attention,
               (SELECT id FROM orders WHERE status IN ('queued', 'processing') ORDER BY created_at, id LIMIT 1) AS oldest_id,
               (SELECT min(created_at) FROM orders WHERE status IN ('queued', 'processing')) AS oldest_since
          FROM orders
         WHERE status IN ('queued', 'processing', 'needs_attention')`.pipe(
        Effect.flatMap(queueRows.one),
        Effect.map((row) => ({
          queued: row.queued,
          processing: row.processing,
          needsAttention: row.needs_attention,
          oldestWaiting:
            row.oldest_id === null || row.oldest_since === null
              ? null
              : { orderId: row.oldest_id, since: row.oldest_since }
        })),
        orDieSql
      )

      const batchesInFlight = sql`SELECT count(*) AS n FROM wallet_batches WHERE state IN ('signed', 'sent')`.pipe(
        Effect.flatMap(countRows.one),
        Effect.map((row) => row.n),
        orDieSql
      )

      const workers =
        sql`SELECT worker, started_at, beat_at, hot_wallet, wallet_read_at FROM worker_beats ORDER BY worker`.pipe(
          Effect.flatMap(beatRows.all),
          Effect.map((rows) =>
            rows.map(
              (row): WorkerBeat => ({
                worker: row.worker,
                startedAt: row.started_at,
                beatAt: row.beat_at,
                hotWallet:
                  row.hot_wallet === null || row.wallet_read_at === null
                    ? null
                    : { report: row.hot_wallet, readAt: row.wallet_read_at }
              })
            )
          ),
          orDieSql
        )

      // A row keeps the last hot-wallet read when this beat carries none (a failed read leaves the last value).
      const beat = (beat: WorkerBeat, forgetBefore: Date) =>
        Effect.gen(function* () {
          const json = beat.hotWallet === null ? null : JSON.stringify(toJson(beat.hotWallet.report))
          const readAt = beat.hotWallet?.readAt ?? null
          yield* sql`
            INSERT INTO worker_beats (worker, started_at, beat_at, hot_wallet, wallet_read_at)
            VALUES (${beat.worker}, ${beat.startedAt}, ${beat.beatAt}, ${json}::jsonb, ${readAt})
            ON CONFLICT (worker) DO UPDATE SET
              beat_at = EXCLUDED.beat_at,
              hot_wallet = coalesce(EXCLUDED.hot_wallet, worker_beats.hot_wallet),
              wallet_read_at = coalesce(EXCLUDED.wallet_read_at, worker_beats.wallet_read_at)`
          yield* sql`DELETE FROM worker_beats WHERE beat_at < ${forgetBefore}`
        }).pipe(orDieSql)

      return FleetStatus.of({ sessions, queue, batchesInFlight, workers, beat })
    })
  )
}
