/**
 * Migration 0021 on real PostgreSQL: a database at 0020 whose gift order kept its send marker in
 * `fragment_ref` has it in `gift_ref` afterwards; a stars order keeps its Fragment `Ref#`.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { Migrations } from "../src/Migrations.ts"
import { beforeMigration } from "./support/BeforeMigration.ts"

describe("migration 0021_gift_ref", () => {
  it.effect(
    "moves a gift order's reference out of fragment_ref into gift_ref",
    () =>
      beforeMigration("0021", (before) =>
        Effect.gen(function* () {
          const sql = yield* SqlClient
          assert.strictEqual(before.at(-1)?.[1], "order_delivery")
          const [user] = yield* sql<{ id: bigint }>`
          INSERT INTO users (telegram_id, created_at, updated_at) VALUES (7, now(), now()) RETURNING id`
          const gift = {
            kind: "gift",
            giftId: "5170145012310081615",
            giftStars: 15,
            comment: null,
            senderAccount: null,
            anonymous: false
          }
          yield* sql`
          INSERT INTO orders (user_id, recipient, kind, item, price_uzs, status, fragment_ref, created_at, updated_at) VALUES
            (${user!.id}, 'friend', 'gift', ${JSON.stringify(gift)}::jsonb, 3450, 'processing', 'gift@2026-01-01T00:00:00.000Z', now(), now()),
            (${user!.id}, 'friend', 'gift', ${JSON.stringify(gift)}::jsonb, 3450, 'queued', NULL, now(), now()),
            (${user!.id}, 'durov', 'stars', '{"kind":"stars","stars":100}'::jsonb, 23000, 'completed', 'kpJ55h3BW', now(), now())`
          const applied = yield* Migrations.run
          assert.strictEqual(applied[0]?.[1], "gift_ref")
          const rows = yield* sql<{ kind: string; fragment_ref: string | null; gift_ref: string | null }>`
          SELECT kind, fragment_ref, gift_ref FROM orders ORDER BY id`
          assert.deepStrictEqual(
            rows.map((r) => [r.kind, r.fragment_ref, r.gift_ref]),
            [
              ["gift", null, "gift@2026-01-01T00:00:00.000Z"],
              ["gift", null, null],
              ["stars", "kpJ55h3BW", null]
            ]
          )
          // From now on each column holds only its own kind of reference.
          const misplaced = yield* Effect.flip(sql`UPDATE orders SET fragment_ref = 'Ref#1' WHERE kind = 'gift'`)
          assert.strictEqual(misplaced.reason._tag, "ConstraintError")
          assert.include(String(misplaced.reason.cause), "orders_fragment_ref_not_gift")
        })
      ),
    60_000
  )
})
