import { formatTon } from "@resale/core/money/Nanoton.ts"
import type { StatusReport } from "@resale/core/status/OperatorStatus.ts"
import { Schema } from "effect"
import { Timestamp } from "./Records.ts"

const WalletAddress = Schema.Struct({ type: Schema.String, address: Schema.String })

/** The operator's status panel (`GET /v2/admin/status`): the fleet at one instant. */
export const AdminStatus = Schema.Struct({
  at: Timestamp,
  sessions: Schema.Array(
    Schema.Struct({
      session: Schema.String.annotate({ description: "The Fragment session's label (never its cookies)" }),
      health: Schema.Literals(["ready", "busy", "failing"]).annotate({
        description:
          "failing: Fragment refused its signed messages at least twice in the last hour; busy: held by a purchase"
      }),
      held_until: Schema.NullOr(Timestamp),
      purchases_last_hour: Schema.Struct({ accepted: Schema.Int, refused: Schema.Int, unsent: Schema.Int }),
      last_purchase_at: Schema.NullOr(Timestamp)
    })
  ),
  hot_wallet: Schema.NullOr(
    Schema.Struct({
      funded: Schema.Boolean,
      type: Schema.NullOr(Schema.String),
      address: Schema.NullOr(Schema.String),
      state: Schema.NullOr(Schema.Literals(["active", "uninit", "frozen"])),
      balance_ton: Schema.NullOr(Schema.String.annotate({ description: "Exact TON, decimal text" })),
      fund_at: Schema.Array(WalletAddress).annotate({
        description: "Where to send TON while no wallet of the phrase holds any"
      }),
      read_at: Timestamp
    })
  ).annotate({ description: "The hot wallet as a worker last read it; null before any worker read it" }),
  batches_in_flight: Schema.Int,
  queue: Schema.Struct({
    queued: Schema.Int,
    processing: Schema.Int,
    needs_attention: Schema.Int,
    oldest_waiting_order_id: Schema.NullOr(Schema.Int),
    oldest_waiting_seconds: Schema.NullOr(Schema.Int)
  }),
  last_block_at: Schema.NullOr(Timestamp).annotate({
    description: "Chain time of the newest block a worker saw (with its hot-wallet read)"
  }),
  workers: Schema.Array(
    Schema.Struct({
      worker: Schema.String,
      started_at: Timestamp,
      beat_at: Timestamp,
      silent_seconds: Schema.Int,
      alive: Schema.Boolean
    })
  )
}).annotate({ identifier: "AdminStatus" })

const iso = (date: Date | null): string | null => (date === null ? null : date.toISOString())

export const statusOut = (report: StatusReport): typeof AdminStatus.Type => ({
  at: report.at.toISOString(),
  sessions: report.sessions.map((s) => ({
    session: s.session,
    health: s.health,
    held_until: iso(s.heldUntil),
    purchases_last_hour: { accepted: s.accepted, refused: s.refused, unsent: s.unsent },
    last_purchase_at: iso(s.lastPurchaseAt)
  })),
  hot_wallet:
    report.hotWallet === null
      ? null
      : report.hotWallet.report.funded
        ? {
            funded: true,
            type: report.hotWallet.report.version,
            address: report.hotWallet.report.address,
            state: report.hotWallet.report.state,
            balance_ton: formatTon(report.hotWallet.report.balance),
            fund_at: [],
            read_at: report.hotWallet.readAt.toISOString()
          }
        : {
            funded: false,
            type: null,
            address: null,
            state: null,
            balance_ton: null,
            fund_at: report.hotWallet.report.fundAt.map((w) => ({ type: w.version, address: w.address })),
            read_at: report.hotWallet.readAt.toISOString()
          },
  batches_in_flight: report.batchesInFlight,
  queue: {
    queued: report.queue.queued,
    processing: report.queue.processing,
    needs_attention: report.queue.needsAttention,
    oldest_waiting_order_id: report.queue.oldestWaiting?.orderId ?? null,
    oldest_waiting_seconds: report.queue.oldestWaitingSeconds
  },
  last_block_at: iso(report.lastBlockAt),
  workers: report.workers.map((w) => ({
    worker: w.worker,
    started_at: w.startedAt.toISOString(),
    beat_at: w.beatAt.toISOString(),
    silent_seconds: w.silentSeconds,
    alive: w.alive
  }))
})
