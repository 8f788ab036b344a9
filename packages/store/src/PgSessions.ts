import { type Session, Sessions, type UserId } from "@resale/core"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { date, id, int, orDieSql } from "./SqlValues.ts"

interface SessionRow {
  readonly id: string
  readonly subject_kind: string
  readonly user_id: bigint | null
  readonly created_at: Date
  readonly expires_at: Date
}

const toSession = (row: SessionRow): Session => ({
  id: row.id,
  subject: row.subject_kind === "user" && row.user_id !== null
    ? { kind: "user", userId: id<UserId>(row.user_id) }
    : { kind: "operator" },
  createdAt: date(row.created_at),
  expiresAt: date(row.expires_at)
})

/** `Sessions` on the `sessions` table (the id is the http layer's hash of the cookie, never the cookie). */
export const PgSessions = {
  layer: Layer.effect(
    Sessions,
    Effect.gen(function*() {
      const sql = yield* SqlClient

      const create = Effect.fn("Sessions.create")(function*(session: Session) {
        const userId = session.subject.kind === "user" ? session.subject.userId : null
        yield* sql`
          INSERT INTO sessions (id, subject_kind, user_id, created_at, expires_at)
          VALUES (${session.id}, ${session.subject.kind}, ${userId}, ${session.createdAt}, ${session.expiresAt})`
      }, orDieSql)

      const find = Effect.fn("Sessions.find")(function*(sessionId: string, now: Date) {
        const [row] = yield* sql<SessionRow>`SELECT * FROM sessions WHERE id = ${sessionId} AND expires_at > ${now}`
        return row === undefined ? Option.none() : Option.some(toSession(row))
      }, orDieSql)

      const remove = Effect.fn("Sessions.remove")(function*(sessionId: string) {
        yield* sql`DELETE FROM sessions WHERE id = ${sessionId}`
      }, orDieSql)

      const claimLogin = Effect.fn("Sessions.claimLogin")(function*(payloadHash: string, keepUntil: Date) {
        const rows = yield* sql`
          INSERT INTO used_logins (payload_hash, keep_until) VALUES (${payloadHash}, ${keepUntil})
          ON CONFLICT (payload_hash) DO NOTHING RETURNING 1`
        return rows.length === 1
      }, orDieSql)

      const removeExpired = Effect.fn("Sessions.removeExpired")(function*(now: Date) {
        yield* sql`DELETE FROM used_logins WHERE keep_until <= ${now}`
        const [row] = yield* sql<{ n: bigint }>`
          WITH gone AS (DELETE FROM sessions WHERE expires_at <= ${now} RETURNING 1) SELECT count(*) AS n FROM gone`
        return int(row?.n ?? 0n)
      }, orDieSql)

      return Sessions.of({ create, find, remove, claimLogin, removeExpired })
    })
  )
} as const
