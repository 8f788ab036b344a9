/**
 * Migration 0023 on real PostgreSQL over a database at 0022 that holds batches signed before it: a
 * seqno wallet's settled batch and its open one, a Highload V3 wallet's open and expired batches.
 * Every batch keeps its rows and takes slot 0 (each wallet had one open batch at most), a Highload
 * batch gets the query id it was signed with; then the store settles the open batch and still refuses
 * a second open batch of the seqno wallet, or a second open message with the same query id.
 */
import { assert, describe, it } from "@effect/vitest"
import type { Nanoton, PreparedBatch } from "@resale/core/ports/Blockchain.ts"
import { WalletPayments } from "@resale/core/ports/WalletPayments.ts"
import { Context, Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { Migrations } from "../src/Migrations.ts"
import { PgWalletPayments } from "../src/PgWalletPayments.ts"
import { beforeMigration } from "./support/BeforeMigration.ts"

const SEQNO = "UQseqno"
const HIGHLOAD = "UQhighload"
const FRAGMENT = "UQfragment"
const AMOUNT = 460_900_000n as Nanoton
const hex = (c: string) => c.repeat(64)

const prepared = (wallet: string, seqno: number, hash: string, transfers: number, queryId?: number): PreparedBatch => ({
  wallet,
  seqno,
  ...(queryId === undefined ? {} : { queryId }),
  createdAt: 1_900_000_000,
  validUntil: 1_900_000_600,
  externalHash: hash,
  boc: "te6cckEBAQEAAgAAAEysuc0=",
  transfers: Array.from({ length: transfers }, (_, i) => ({
    to: FRAGMENT,
    amount: AMOUNT,
    bodyHash: hex(String(i + 1))
  }))
})

describe("migration 0023_wallet_parallel_batches", () => {
  it.effect(
    "keeps batches signed before it, each in slot 0 with its query id; the store goes on with them",
    () =>
      beforeMigration("0023", (before) =>
        Effect.gen(function* () {
          const sql = yield* SqlClient
          assert.strictEqual(before.at(-1)?.[1], "wallet_batches")
          // As 0022's store wrote them: amounts of the message as decimal text in the jsonb.
          const batch = (message: PreparedBatch, state: string, settled: boolean) =>
            Effect.map(
              sql<{ id: string }>`
            INSERT INTO wallet_batches (network, wallet_address, state, seqno, external_hash, valid_until, prepared, payments, tx_hash, fee_nano, created_at, updated_at)
            VALUES ('mainnet', ${message.wallet}, ${state}, ${message.seqno}, ${message.externalHash}, ${message.validUntil},
              ${JSON.stringify({ ...message, transfers: message.transfers.map((t) => ({ ...t, amount: String(t.amount) })) })}::jsonb,
              ${message.transfers.length}, ${settled && state === "executed" ? hex("e") : null}, ${settled && state === "executed" ? 3_100_000 : null},
              '2026-03-01T10:00:00Z', '2026-03-01T10:00:05Z')
            RETURNING id`,
              ([row]) => Number(row!.id)
            )
          const payment = (key: string, wallet: string, batchId: number, position: number, state: string) =>
            sql`
            INSERT INTO wallet_payments (key, wallet_address, batch_id, position, kind, state, req_id, ref, pay_to, amount_nano, valid_until, tx_hash, error, created_at, updated_at)
            VALUES (${key}, ${wallet}, ${batchId}, ${position}, 'stars', ${state}, ${`req-${key}`}, ${`Ref${key}`}, ${FRAGMENT}, ${String(AMOUNT)}, 1900000600,
              ${state === "paid" ? hex("e") : null}, ${state === "failed" ? "Not paid: its action was skipped" : null}, '2026-03-01T10:00:00Z', '2026-03-01T10:00:05Z')`
          const settled = yield* batch(prepared(SEQNO, 4, hex("a"), 2), "executed", true)
          yield* payment("hw-1-0", SEQNO, settled, 0, "paid")
          yield* payment("hw-2-0", SEQNO, settled, 1, "failed")
          const open = yield* batch(prepared(SEQNO, 5, hex("b"), 2), "sent", false)
          yield* payment("hw-3-0", SEQNO, open, 0, "open")
          yield* payment("hw-4-0", SEQNO, open, 1, "open")
          const expired = yield* batch(prepared(HIGHLOAD, 0, hex("c"), 1, 76), "expired", true)
          yield* payment("hw-5-0", HIGHLOAD, expired, 0, "failed")
          const openHighload = yield* batch(prepared(HIGHLOAD, 0, hex("d"), 1, 77), "signed", false)
          yield* payment("hw-6-0", HIGHLOAD, openHighload, 0, "open")

          const applied = yield* Migrations.run
          assert.strictEqual(applied[0]?.[1], "wallet_parallel_batches")
          const rows = yield* sql<{ id: string; state: string; slot: number; query_id: string | null }>`
          SELECT id, state, slot, query_id FROM wallet_batches ORDER BY id`
          assert.deepStrictEqual(
            rows.map((r) => [Number(r.id), r.state, r.slot, r.query_id === null ? null : Number(r.query_id)]),
            [
              [settled, "executed", 0, null],
              [open, "sent", 0, null],
              [expired, "expired", 0, 76],
              [openHighload, "signed", 0, 77]
            ]
          )
          const payments = yield* sql<{ key: string; batch_id: string; position: number; state: string }>`
          SELECT key, batch_id, position, state FROM wallet_payments ORDER BY key`
          assert.deepStrictEqual(
            payments.map((p) => [p.key, Number(p.batch_id), p.position, p.state]),
            [
              ["hw-1-0", settled, 0, "paid"],
              ["hw-2-0", settled, 1, "failed"],
              ["hw-3-0", open, 0, "open"],
              ["hw-4-0", open, 1, "open"],
              ["hw-5-0", expired, 0, "failed"],
              ["hw-6-0", openHighload, 0, "open"]
            ]
          )

          const store = Context.get(yield* Layer.build(PgWalletPayments.layer), WalletPayments)
          // The open batch is found with its payments in the message's order, its message decoded.
          const found = yield* store.openBatches(SEQNO)
          assert.deepStrictEqual(
            found.map((b) => [b.batch.id, b.batch.prepared.seqno, b.payments.map((p) => p.key)]),
            [[open, 5, ["hw-3-0", "hw-4-0"]]]
          )
          assert.deepStrictEqual(
            found[0]!.batch.prepared.transfers.map((t) => t.amount),
            [AMOUNT, AMOUNT]
          )
          const now = new Date("2026-03-01T10:01:00Z")
          const next = (wallet: string, seqno: number, hash: string, key: string, queryId?: number) =>
            Effect.result(
              store.record(
                "mainnet",
                prepared(wallet, seqno, hash, 1, queryId),
                [
                  {
                    key,
                    walletAddress: wallet,
                    kind: "stars",
                    reqId: `req-${key}`,
                    ref: `Ref${key}`,
                    payTo: FRAGMENT,
                    amount: AMOUNT,
                    validUntil: 1_900_000_600
                  }
                ],
                now,
                4
              )
            )
          // The seqno wallet's open batch still holds its one slot, whatever slots are asked.
          assert.strictEqual((yield* next(SEQNO, 6, hex("f"), "hw-7-0"))._tag, "Failure")
          // The Highload wallet's open message keeps its query id; another one runs beside it.
          assert.strictEqual((yield* next(HIGHLOAD, 0, hex("1"), "hw-8-0", 77))._tag, "Failure")
          assert.strictEqual((yield* next(HIGHLOAD, 0, hex("2"), "hw-8-0", 78))._tag, "Success")

          // Settled (as a reconciliation finds it on chain), the seqno wallet's slot is free again.
          yield* store.settle(
            open,
            { state: "executed", txHash: hex("9"), fee: 3_000_000n as Nanoton },
            [
              { key: "hw-3-0", state: "paid", txHash: hex("9") },
              { key: "hw-4-0", state: "failed", error: "Not paid: its action was skipped" }
            ],
            now
          )
          assert.deepStrictEqual(yield* store.openBatches(SEQNO), [])
          assert.strictEqual(Option.getOrThrow(yield* store.find("hw-3-0")).state, "paid")
          assert.strictEqual((yield* next(SEQNO, 6, hex("f"), "hw-7-0"))._tag, "Success")
          const slots = yield* sql<{ wallet_address: string; slot: number }>`
          SELECT wallet_address, slot FROM wallet_batches WHERE state IN ('signed', 'sent') ORDER BY wallet_address, slot`
          assert.deepStrictEqual(
            slots.map((s) => [s.wallet_address, s.slot]),
            [
              [HIGHLOAD, 0],
              [HIGHLOAD, 1],
              [SEQNO, 0]
            ]
          )
        })
      ),
    60_000
  )
})
