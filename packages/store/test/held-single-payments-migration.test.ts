/**
 * Migration 0026 on real PostgreSQL over a database at 0025 that still holds payments of the
 * single-payment engine (open, no batch): each becomes `held` with its evidence, never paid again
 * (the store refuses to sign its key into a batch); its order, while it waits for the worker with that
 * charge, goes to `needs_attention` with the evidence and an `order.attention` event; payments of open
 * batches, settled payments, and orders already finished are left as they are.
 */
import { assert, describe, it } from "@effect/vitest"
import type { Nanoton, PreparedBatch } from "@resale/core/ports/Blockchain.ts"
import { WalletPayments } from "@resale/core/ports/WalletPayments.ts"
import { Context, Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { Migrations } from "../src/Migrations.ts"
import { PgWalletPayments } from "../src/PgWalletPayments.ts"
import { beforeMigration } from "./support/BeforeMigration.ts"

const HOT = "UQhot"
const FRAGMENT = "UQfragment"
const AMOUNT = 460_900_000n as Nanoton
const hex = (c: string) => c.repeat(64)
const AT = "2026-03-01T10:00:00Z"

const prepared = (seqno: number, hash: string): PreparedBatch => ({
  wallet: HOT,
  seqno,
  createdAt: 1_900_000_000,
  validUntil: 1_900_000_600,
  externalHash: hash,
  boc: "te6cckEBAQEAAgAAAEysuc0=",
  transfers: [{ to: FRAGMENT, amount: AMOUNT, bodyHash: hex("1") }]
})

// As the store writes it: the message's amounts as decimal text in the jsonb.
const preparedJson = (message: PreparedBatch) =>
  JSON.stringify({ ...message, transfers: message.transfers.map((t) => ({ ...t, amount: String(t.amount) })) })

describe("migration 0026_held_single_payments", () => {
  it.effect(
    "holds the single-payment engine's unsettled payments for the operators and never pays them again",
    () =>
      beforeMigration("0026", (before) =>
        Effect.gen(function* () {
          const sql = yield* SqlClient
          assert.strictEqual(before.at(-1)?.[1], "webhook_event_ids")
          const [user] = yield* sql<{ id: string }>`
            INSERT INTO users (telegram_id, username, created_at, updated_at) VALUES (1, 'alice', ${AT}, ${AT}) RETURNING id`
          const order = (status: string, chargeSeq = 0, evidence: object | null = null, kind = "stars") =>
            Effect.map(
              sql<{ id: string }>`
              INSERT INTO orders (user_id, recipient, kind, item, price_uzs, status, charge_seq, next_attempt_at, evidence,
                unknown_since, unknown_attempts, tx_id, delivery, completed_at, created_at, updated_at)
              VALUES (${user!.id}, 'durov', ${kind},
                ${JSON.stringify(kind === "stars" ? { kind, stars: 50 } : { kind, months: 3 })}::jsonb, 115000, ${status}, ${chargeSeq},
                ${status === "queued" ? AT : null}, ${evidence === null ? null : JSON.stringify(evidence)}::jsonb,
                ${evidence === null ? null : AT}, ${evidence === null ? 0 : 9},
                ${status === "completed" ? "tx-by-operator" : null}, ${status === "completed" ? "confirmed" : null},
                ${status === "completed" ? AT : null}, ${AT}, ${AT})
              RETURNING id`,
              ([row]) => Number(row!.id)
            )
          const payment = (key: string, state: string, batchId: number | null = null) =>
            sql`
            INSERT INTO wallet_payments (key, wallet_address, batch_id, position, kind, state, req_id, ref, pay_to, amount_nano, valid_until, tx_hash, error, created_at, updated_at)
            VALUES (${key}, ${HOT}, ${batchId}, ${batchId === null ? null : 0}, 'stars', ${state}, ${`req-${key}`}, ${`Ref${key.split("-")[1]}`},
              ${FRAGMENT}, ${String(AMOUNT)}, 1900000600, ${state === "paid" ? hex("e") : null},
              ${state === "failed" ? "Not paid" : null}, ${AT}, ${AT})`
          const answers = ["a1", "a2", "a3", "a4", "a5"]

          const queued = yield* order("queued")
          const processing = yield* order("processing", 0, null, "premium")
          const attention = yield* order("needs_attention", 0, {
            txHash: null,
            ref: "old",
            chainState: "sent",
            answers
          })
          const completed = yield* order("completed")
          const retried = yield* order("queued", 1)
          const batched = yield* order("processing")
          yield* payment(`hw-${queued}-0-aa`, "open")
          yield* payment(`hw-${processing}-0-bb`, "open")
          yield* payment(`hw-${attention}-0-cc`, "open")
          yield* payment(`hw-${completed}-0-dd`, "open")
          // The earlier charge of an order refunded and retried: its payment is held, the new charge goes on.
          yield* payment(`hw-${retried}-0-ee`, "open")
          // A payment of an open batch is the batch engine's own: settled by its message, not held.
          const [open] = yield* sql<{ id: string }>`
            INSERT INTO wallet_batches (network, wallet_address, state, seqno, external_hash, valid_until, prepared, payments, created_at, updated_at)
            VALUES ('mainnet', ${HOT}, 'sent', 5, ${hex("b")}, 1900000600, ${preparedJson(prepared(5, hex("b")))}::jsonb, 1, ${AT}, ${AT})
            RETURNING id`
          yield* payment(`hw-${batched}-0-ff`, "open", Number(open!.id))
          yield* payment("hw-900-0-paid", "paid")
          yield* payment("hw-901-0-failed", "failed")

          const applied = yield* Migrations.run
          // 0026 runs first; the migrations landed after it follow.
          assert.strictEqual(applied.map(([, name]) => name)[0], "held_single_payments")

          const payments = yield* sql<{ key: string; state: string; error: string | null }>`
            SELECT key, state, error FROM wallet_payments ORDER BY id`
          assert.deepStrictEqual(
            payments.map((p) => [p.key.split("-").slice(0, 2).join("-"), p.state]),
            [
              [`hw-${queued}`, "held"],
              [`hw-${processing}`, "held"],
              [`hw-${attention}`, "held"],
              [`hw-${completed}`, "held"],
              [`hw-${retried}`, "held"],
              [`hw-${batched}`, "open"],
              ["hw-900", "paid"],
              ["hw-901", "failed"]
            ]
          )
          const held = payments[0]!.error ?? ""
          assert.include(held, `Ref#Ref${queued}`)
          assert.include(held, `${AMOUNT} nanoton to ${FRAGMENT}, valid until 2030-03-17 17:56:40 UTC`)
          assert.include(held, "never paid again")

          const orders = yield* sql<{
            id: string
            status: string
            next_attempt_at: Date | null
            fragment_ref: string | null
            unknown_attempts: number
            unknown_since: Date | null
            evidence: { txHash: string | null; ref: string; chainState: string; answers: Array<string> } | null
            last_error: string | null
          }>`SELECT * FROM orders ORDER BY id`
          const byId = new Map(orders.map((o) => [Number(o.id), o]))
          for (const id of [queued, processing]) {
            const o = byId.get(id)!
            assert.deepStrictEqual(
              [o.status, o.next_attempt_at, o.fragment_ref, o.unknown_attempts],
              ["needs_attention", null, `Ref${id}`, 1]
            )
            assert.isNotNull(o.unknown_since)
            assert.deepStrictEqual(
              [o.evidence?.txHash, o.evidence?.ref, o.evidence?.chainState, o.evidence?.answers.length],
              [null, `Ref${id}`, "held", 1]
            )
            assert.include(o.last_error ?? "", `Ref#Ref${id}`)
          }
          // Already with the operators: the evidence is added (the latest five answers kept), no second event.
          const kept = byId.get(attention)!
          assert.deepStrictEqual(
            [kept.status, kept.evidence?.ref, kept.evidence?.chainState, kept.evidence?.answers.slice(0, 4)],
            ["needs_attention", `Ref${attention}`, "held", ["a2", "a3", "a4", "a5"]]
          )
          assert.include(kept.evidence?.answers[4] ?? "", `Ref#Ref${attention}`)
          assert.deepStrictEqual(
            [completed, retried, batched].map((id) => [byId.get(id)!.status, byId.get(id)!.evidence]),
            [
              ["completed", null],
              ["queued", null],
              ["processing", null]
            ]
          )

          const events = yield* sql<{ kind: string; user_id: string | null; payload: Record<string, unknown> }>`
            SELECT kind, user_id, payload FROM outbox_events ORDER BY id`
          assert.deepStrictEqual(
            events.map((e) => [e.kind, e.user_id, e.payload.orderId, e.payload.ref, e.payload.checks]),
            [
              ["order.attention", null, queued, `Ref${queued}`, 1],
              ["order.attention", null, processing, `Ref${processing}`, 1]
            ].sort((a, b) => Number(a[2]) - Number(b[2]))
          )

          // Never paid again: the store refuses to sign a held key into a batch, and reads it back as held.
          const store = Context.get(yield* Layer.build(PgWalletPayments.layer), WalletPayments)
          const key = payments[0]!.key
          const again = yield* Effect.result(
            store.record(
              "mainnet",
              prepared(6, hex("c")),
              [
                {
                  key,
                  walletAddress: HOT,
                  kind: "stars",
                  reqId: "req-new",
                  ref: "RefNew",
                  payTo: FRAGMENT,
                  amount: AMOUNT,
                  validUntil: 1_900_000_600
                }
              ],
              new Date()
            )
          )
          assert.strictEqual(again._tag, "Failure")
          assert.strictEqual(Option.getOrThrow(yield* store.find(key)).state, "held")
          assert.deepStrictEqual(
            yield* store.openBatches(HOT).pipe(Effect.map((b) => b.map((x) => x.batch.prepared.seqno))),
            [5]
          )
        })
      ),
    60_000
  )
})
