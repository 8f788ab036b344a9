/**
 * One outbox event this version cannot read (a kind written by a newer version during a rolling
 * deploy, or a payload it cannot parse) never stops the claim: the others are delivered, and the
 * unreadable one stays pending for a version that reads it, with a warning naming it.
 */
import { assert, layer } from "@effect/vitest"
import { Outbox } from "@resale/core/ports"
import { Effect, Logger, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { IsolatedPostgres } from "../src/testing/IsolatedPostgres.ts"
import { at, newUser, t0 } from "./contract/support.ts"

const Row = Schema.Struct({
  id: Schema.BigInt,
  status: Schema.String,
  last_error: Schema.NullOr(Schema.String),
  available_at: Schema.Date
})

layer(IsolatedPostgres.layerStore)("outbox claim on PostgreSQL", (it) => {
  it.effect(
    "an event of an unknown kind beside a normal one: the normal one is delivered, the claim does not die",
    () =>
      Effect.gen(function* () {
        const outbox = yield* Outbox
        const sql = yield* SqlClient
        const user = yield* newUser(21)
        const normal = yield* outbox.add(
          { kind: "topup.paid", userId: user.id, payload: { topupId: 1, amountUzs: 5000 } },
          t0
        )
        const inserted = (kind: string, payload: string) =>
          sql`
          INSERT INTO outbox_events (kind, user_id, payload, status, available_at, created_at)
          VALUES (${kind}, ${user.id}, ${payload}::jsonb, 'pending', ${t0}, ${t0})
          RETURNING id`.pipe(
            Effect.orDie,
            Effect.map((rows) => String(rows[0]?.["id"]))
          )
        const future = yield* inserted("gift.received", `{"giftId": 7}`)
        const nested = yield* inserted("topup.paid", `{"topupId": {"nested": true}}`)
        const later = yield* outbox.add({ kind: "order.completed", userId: user.id, payload: { orderId: 3 } }, at(1))

        const warnings: Array<string> = []
        const capture = Logger.layer([
          Logger.make(({ logLevel, message }) => {
            if (logLevel === "Warn") warnings.push(Array.isArray(message) ? message.join(" ") : String(message))
          })
        ])
        const claimed = yield* outbox.claim(at(2), 10, 30_000).pipe(Effect.provide(capture))
        assert.deepStrictEqual(
          claimed.map((e) => e.id),
          [normal.id, later.id]
        )
        assert.strictEqual(warnings.length, 2, warnings.join("\n"))
        assert.include(warnings.find((w) => w.includes(`event ${future} `)) ?? "", `kind "gift.received"`)
        assert.include(warnings.find((w) => w.includes(`event ${nested} `)) ?? "", `kind "topup.paid"`)

        // Not failed, not delivered: pending for a version that reads it, back after the lease like any claim.
        const rows =
          yield* sql`SELECT id, status, last_error, available_at FROM outbox_events WHERE id IN (${future}, ${nested}) ORDER BY id`.pipe(
            Effect.orDie,
            Effect.flatMap(Schema.decodeUnknownEffect(Schema.Array(Row))),
            Effect.orDie
          )
        assert.deepStrictEqual(
          rows.map((r) => [String(r.id), r.status, r.available_at.getTime()]),
          [
            [future, "pending", at(30_002).getTime()],
            [nested, "pending", at(30_002).getTime()]
          ]
        )
        for (const r of rows) assert.match(r.last_error ?? "", /^not readable by this version: /)

        // The next round delivers what is due and passes over them again, without dying.
        yield* outbox.markDelivered(normal.id, at(3))
        yield* outbox.markFailed(later.id, "push service 500", at(40_000))
        const again = yield* outbox.claim(at(40_000), 10, 30_000).pipe(Effect.provide(capture))
        assert.deepStrictEqual(
          again.map((e) => e.id),
          [later.id]
        )
      })
  )
})
