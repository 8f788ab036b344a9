/**
 * The business gauges `/metrics` reads from the database at scrape time: orders by state and kind,
 * fulfilment attempts and retries, refunds, direct purchases (with their unknown outcomes), top-ups by
 * state, bank payments by state (the unmatched ones wait for the operator), the notification
 * outbox and webhook backlogs, and the Fragment sessions with their purchases of the last hour. Each query stands alone: one that fails leaves its gauges out of this scrape.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

export interface GaugeSample {
  readonly name: string
  readonly help: string
  readonly labels: Readonly<Record<string, string>>
  readonly value: number
}

interface Query {
  readonly name: string
  readonly help: string
  readonly labels: ReadonlyArray<string>
  readonly sql: string
}

const QUERIES: ReadonlyArray<Query> = [
  {
    name: "resale_orders",
    help: "Balance orders by state and kind",
    labels: ["state", "kind"],
    sql: "SELECT status AS state, kind, count(*)::float8 AS value FROM orders GROUP BY status, kind"
  },
  {
    name: "resale_order_fulfilment_attempts",
    help: "Fulfilment attempts made for balance orders (all time)",
    labels: [],
    sql: "SELECT coalesce(sum(attempts), 0)::float8 AS value FROM orders"
  },
  {
    name: "resale_order_fulfilment_retries",
    help: "Fulfilment attempts beyond each order's first (all time)",
    labels: [],
    sql: "SELECT coalesce(sum(greatest(attempts - 1, 0)), 0)::float8 AS value FROM orders"
  },
  {
    name: "resale_orders_unknown_outcome",
    help: "Balance orders whose last fulfilment attempt had no clear answer (being rechecked, not yet settled)",
    labels: [],
    sql: "SELECT count(*)::float8 AS value FROM orders WHERE unknown_since IS NOT NULL AND status NOT IN ('completed', 'failed')"
  },
  {
    name: "resale_refunds",
    help: "Refunds credited back to balances (all time)",
    labels: [],
    sql: "SELECT count(*)::float8 AS value FROM ledger_entries WHERE cause = 'refund'"
  },
  {
    name: "resale_direct_purchases",
    help: "Direct (wallet-paid) purchases by state and kind; state unknown awaits reconciliation",
    labels: ["state", "kind"],
    sql: "SELECT state, kind, count(*)::float8 AS value FROM direct_purchases GROUP BY state, kind"
  },
  {
    name: "resale_topups",
    help: "Top-ups by state",
    labels: ["state"],
    sql: "SELECT status AS state, count(*)::float8 AS value FROM topups GROUP BY status"
  },
  {
    name: "resale_bank_payments",
    help: "Incoming bank payments by state (unmatched and ambiguous wait for the operator)",
    labels: ["state"],
    sql: "SELECT status AS state, count(*)::float8 AS value FROM incoming_payments GROUP BY status"
  },
  {
    name: "resale_outbox_backlog",
    help: "Notifications waiting to be delivered",
    labels: [],
    sql: "SELECT count(*)::float8 AS value FROM outbox_events WHERE status = 'pending'"
  },
  {
    name: "resale_outbox_oldest_pending_seconds",
    help: "Age of the oldest notification waiting to be delivered (0 when none)",
    labels: [],
    sql: "SELECT coalesce(extract(epoch FROM now() - min(created_at)), 0)::float8 AS value FROM outbox_events WHERE status = 'pending'"
  },
  {
    name: "resale_webhook_deliveries_pending",
    help: "Webhook deliveries to integrators waiting for their next attempt",
    labels: [],
    sql: "SELECT count(*)::float8 AS value FROM webhook_deliveries WHERE status = 'pending'"
  },
  {
    name: "resale_webhook_oldest_pending_seconds",
    help: "Age of the oldest webhook delivery still pending (0 when none)",
    labels: [],
    sql: "SELECT coalesce(extract(epoch FROM now() - min(created_at)), 0)::float8 AS value FROM webhook_deliveries WHERE status = 'pending'"
  },
  {
    name: "resale_marketplace_sessions",
    help: "Fragment sessions by state: held by a purchase in flight, or free",
    labels: ["state"],
    sql: "SELECT CASE WHEN holder IS NOT NULL AND held_until > now() THEN 'held' ELSE 'free' END AS state, count(*)::float8 AS value FROM marketplace_sessions GROUP BY 1"
  },
  {
    name: "resale_marketplace_purchases_last_hour",
    help: "Fragment purchases of the last hour by session and by what Fragment said of their signed message",
    labels: ["session", "confirm"],
    sql: "SELECT session, confirm, count(*)::float8 AS value FROM marketplace_purchases WHERE created_at > now() - interval '1 hour' GROUP BY session, confirm"
  }
]

const run = (sql: SqlClient, query: Query) =>
  sql.unsafe<Record<string, unknown>>(query.sql).pipe(
    Effect.map((rows) =>
      rows.map(
        (row): GaugeSample => ({
          name: query.name,
          help: query.help,
          labels: Object.fromEntries(query.labels.map((label) => [label, String(row[label])])),
          value: Number(row["value"])
        })
      )
    ),
    Effect.catchCause((cause) =>
      Effect.as(Effect.logWarning(`metrics: ${query.name} could not be read`, cause), [] as ReadonlyArray<GaugeSample>)
    )
  )

/** Every gauge, read now. */
export const readGauges: Effect.Effect<ReadonlyArray<GaugeSample>, never, SqlClient> = Effect.gen(function* () {
  const sql = yield* SqlClient
  const samples = yield* Effect.forEach(QUERIES, (query) => run(sql, query))
  return samples.flat()
})

/** The gauge names and descriptions, for declaring them before the first scrape. */
export const gaugeNames: ReadonlyArray<{ readonly name: string; readonly help: string }> = QUERIES.map(
  ({ help, name }) => ({ name, help })
)
