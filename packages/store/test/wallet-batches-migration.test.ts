/**
 * Migration 0022 on real PostgreSQL: the account orders' payment records (order ids `hw-...`) leave
 * `direct_purchases` for `wallet_payments` (the latest record of each key: done -> paid, failed or
 * never signed -> failed, signed but unsettled -> open, settled later on chain by its Ref#); customers'
 * own direct purchases stay where they are.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { beforeMigration, migrateBefore } from "./support/BeforeMigration.ts"

const HEX = "a".repeat(64)

describe("migration 0022_wallet_batches", () => {
  it.effect(
    "moves the hot wallet's payment records out of direct_purchases",
    () =>
      beforeMigration("0022", () =>
        Effect.gen(function* () {
          const sql = yield* SqlClient
          const row = (
            orderId: string,
            state: string,
            extra: { prepared?: boolean; tx?: string; latest?: boolean; at?: string } = {}
          ) =>
            sql`
            INSERT INTO direct_purchases (order_id, kind, state, fingerprint, network, wallet_address, wallet_version, recipient, units,
              marketplace_req_id, ref, pay_to, pay_amount_nano, prepared, seqno, external_hash, valid_until, tx_hash, fee_nano,
              error_message, latest, created_at, updated_at, completed_at)
            VALUES (${orderId}, 'stars', ${state}, ${HEX}, 'sandbox', 'UQhot', 'v5r1', 'durov', 50,
              ${`req-${orderId}`}, ${`Ref${orderId.length}${state}`}, 'UQfragment', 460900000,
              ${extra.prepared === true ? sql`'{}'::jsonb` : null}, ${extra.prepared === true ? 3 : null}, ${extra.prepared === true ? HEX : null},
              ${extra.prepared === true ? 1_900_000_000 : null}, ${extra.tx ?? null}, ${extra.tx === undefined ? null : 3_000_000},
              ${state === "failed" ? "The wallet ran short" : null}, ${extra.latest ?? true},
              ${extra.at ?? "2026-01-01T00:00:00Z"}, now(), ${state === "done" ? sql`now()` : null})`
          yield* row("hw-1-0-aa", "done", { prepared: true, tx: "b".repeat(64) })
          yield* row("hw-2-0-bb", "failed", { latest: false, at: "2026-01-01T00:00:00Z" })
          yield* row("hw-2-0-bb", "sent", { prepared: true, at: "2026-01-02T00:00:00Z" })
          yield* row("hw-3-0-cc", "pending")
          yield* row("bot-order-7", "done", { prepared: true, tx: "c".repeat(64) })

          // Up to 0026, which holds the open payment left here (its own test shows how).
          const applied = yield* migrateBefore("0026")
          // 0022 first; the later ones (0023: parallel batches of a Highload V3) follow it.
          assert.strictEqual(applied[0]?.[1], "wallet_batches")
          const moved = yield* sql<{
            key: string
            state: string
            tx_hash: string | null
            batch_id: string | null
            amount_nano: string
          }>`
          SELECT key, state, tx_hash, batch_id, amount_nano FROM wallet_payments ORDER BY key`
          assert.deepStrictEqual(
            moved.map((r) => [r.key, r.state, r.tx_hash, r.batch_id, String(r.amount_nano)]),
            [
              ["hw-1-0-aa", "paid", "b".repeat(64), null, "460900000"],
              ["hw-2-0-bb", "open", null, null, "460900000"],
              ["hw-3-0-cc", "failed", null, null, "460900000"]
            ]
          )
          const left = yield* sql<{ order_id: string }>`SELECT order_id FROM direct_purchases`
          assert.deepStrictEqual(
            left.map((r) => r.order_id),
            ["bot-order-7"]
          )
          // One open batch per wallet, whichever process signs it.
          const open = (n: number) => sql`
          INSERT INTO wallet_batches (network, wallet_address, state, seqno, external_hash, valid_until, prepared, payments, created_at, updated_at)
          VALUES ('sandbox', 'UQhot', 'sent', ${n}, ${HEX}, 1, '{}'::jsonb, 1, now(), now())`
          yield* open(1)
          const second = yield* Effect.flip(open(2))
          assert.strictEqual(second.reason._tag, "UniqueViolation")
        })
      ),
    60_000
  )
})
