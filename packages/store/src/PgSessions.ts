import { type Session, UserId } from "@resale/core"
import { Sessions } from "@resale/core/ports"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { DateColumn, IntColumn, intAs, mapRows, rowDecoder } from "./Rows.ts"
import { orDieSql } from "./SqlValues.ts"

/** A row of `sessions`: a user's session names its user, an operator's none. */
const SessionRow = Schema.Struct({
  id: Schema.String,
  subject_kind: Schema.Literals(["user", "operator"]),
  user_id: Schema.NullOr(intAs(UserId)),
  created_at: DateColumn,
  expires_at: DateColumn
})

const toSession = (row: typeof SessionRow.Type): Session => ({
  id: row.id,
  subject:
    row.subject_kind === "user" && row.user_id !== null ? { kind: "user", userId: row.user_id } : { kind: "operator" },
  createdAt: row.created_at,
  expiresAt: row.expires_at
})

const sessionRows = mapRows(rowDecoder("sessions", SessionRow), toSession)
const countRows = rowDecoder("sessions", Schema.Struct({ n: IntColumn }))

/** `Sessions` on the `sessions` table (the id is the http layer's hash of the cookie, never the cookie). */
export const PgSessions = {
  layer: Layer.effect(
    Sessions,
    Effect.gen(function* () {
      const sql = yield* SqlClient

      const create = Effect.fn("Sessions.create")(function* (session: Session) {
        const userId = session.subject.kind === "user" ? session.subject.userId : null
        yield* sql`
          INSERT INTO sessions (id, subject_kind, user_id, created_at, expires_at)
          VALUES (${session.id}, ${session.subject.kind}, ${userId}, ${session.createdAt}, ${session.expiresAt})`
      }, orDieSql)

      const find = Effect.fn("Sessions.find")(function* (sessionId: string, now: Date) {
        return yield* sessionRows.first(
          yield* sql`SELECT * FROM sessions WHERE id = ${sessionId} AND expires_at > ${now}`
        )
      }, orDieSql)

      const remove = Effect.fn("Sessions.remove")(function* (sessionId: string) {
        yield* sql`DELETE FROM sessions WHERE id = ${sessionId}`
      }, orDieSql)

      const claimLogin = Effect.fn("Sessions.claimLogin")(function* (payloadHash: string, keepUntil: Date) {
        const rows = yield* sql`
          INSERT INTO used_logins (payload_hash, keep_until) VALUES (${payloadHash}, ${keepUntil})
          ON CONFLICT (payload_hash) DO NOTHING RETURNING 1`
        return rows.length === 1
      }, orDieSql)

      const removeExpired = Effect.fn("Sessions.removeExpired")(function* (now: Date) {
        yield* sql`DELETE FROM used_logins WHERE keep_until <= ${now}`
        const [row] = yield* countRows.all(
          yield* sql`
          WITH gone AS (DELETE FROM sessions WHERE expires_at <= ${now} RETURNING 1) SELECT count(*) AS n FROM gone`
        )
        return row?.n ?? 0
      }, orDieSql)

      return Sessions.of({ create, find, remove, claimLogin, removeExpired })
    })
  )
} as const
