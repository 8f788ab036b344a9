import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import type { SqlClient } from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import { randomBytes } from "node:crypto"

/**
 * Administration of throw-away databases on a test server: the server URL (`TEST_DATABASE_URL`,
 * default `postgres://postgres@127.0.0.1:5432`), unique names, CREATE/DROP through a short-lived
 * one-connection client on the server's maintenance database.
 */
export const defaultServerUrl = "postgres://postgres@127.0.0.1:5432"

/** The test server URL from `TEST_DATABASE_URL`, or the local default. */
export const serverUrl = (): string => process.env["TEST_DATABASE_URL"] ?? defaultServerUrl

/** The URL of database `name` on the server of `url` (its own database part, if any, is replaced). */
export const databaseUrl = (name: string, url: string = serverUrl()): string => {
  const parsed = new URL(url)
  parsed.pathname = `/${name}`
  return parsed.toString()
}

/** The database administration commands connect to: the one named in the URL, else `postgres`. */
const maintenanceUrl = (url: string): string => {
  const path = new URL(url).pathname.replace(/^\//, "")
  return databaseUrl(path === "" ? "postgres" : path, url)
}

// Names carry their creation time, so a later run can recognise what a killed run left behind.
const stamp = (): string => Math.floor(Date.now() / 1000).toString(36)

/** `<prefix>_<time>_<random>`: unique per call, safe as an unquoted identifier. */
export const uniqueName = (prefix: string): string => `${prefix}_${stamp()}_${randomBytes(6).toString("hex")}`

/** Runs `f` with a one-connection client on the maintenance database, closed afterwards. */
export const withAdmin = <A, E>(
  f: (sql: SqlClient) => Effect.Effect<A, E>,
  url: string = serverUrl()
): Effect.Effect<A, E | SqlError> =>
  Effect.scoped(Effect.flatMap(PgClient.make({ url: Redacted.make(maintenanceUrl(url)), maxConnections: 1 }), f)).pipe(
    Effect.provide(Reactivity.layer)
  )

const identifier = (name: string): string => {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`)
  return name
}

/** CREATE DATABASE `name`, empty or as a copy of `template` (which nobody may be connected to). */
export const createDatabase = (name: string, template?: string, url?: string): Effect.Effect<void, SqlError> =>
  withAdmin(
    (sql) =>
      sql
        .unsafe(
          template === undefined
            ? `CREATE DATABASE ${identifier(name)}`
            : `CREATE DATABASE ${identifier(name)} TEMPLATE ${identifier(template)}`
        )
        .pipe(Effect.asVoid),
    url
  )

/** Drops `name`, disconnecting whoever is still connected; a template flag is cleared first. */
export const dropDatabase = (name: string, url?: string): Effect.Effect<void, SqlError> =>
  withAdmin(
    (sql) =>
      Effect.gen(function* () {
        const exists = yield* sql`SELECT 1 FROM pg_database WHERE datname = ${name}`
        if (exists.length === 0) return
        yield* sql.unsafe(`ALTER DATABASE ${identifier(name)} WITH IS_TEMPLATE false ALLOW_CONNECTIONS true`)
        yield* sql.unsafe(`DROP DATABASE IF EXISTS ${identifier(name)} WITH (FORCE)`)
      }),
    url
  )

/** Makes `name` a template nobody can connect to, so `CREATE DATABASE … TEMPLATE` never finds a user on it. */
export const freezeAsTemplate = (name: string, url?: string): Effect.Effect<void, SqlError> =>
  withAdmin(
    (sql) =>
      sql
        .unsafe(`ALTER DATABASE ${identifier(name)} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`)
        .pipe(Effect.asVoid),
    url
  )

/**
 * Drops databases named `<prefix>_<time>_…` older than `maxAgeHours` that nobody is connected to:
 * what runs that were killed before their teardown left behind. Younger ones may belong to a run in progress.
 */
export const dropStale = (prefix: string, maxAgeHours = 12, url?: string): Effect.Effect<number, SqlError> =>
  withAdmin(
    (sql) =>
      Effect.gen(function* () {
        const rows = yield* sql<{ datname: string }>`
          SELECT datname FROM pg_database d
          WHERE datname LIKE ${`${prefix}\\_%`}
            AND NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.datname = d.datname)`
        const cutoff = Date.now() / 1000 - maxAgeHours * 3600
        const stale = rows
          .map((r) => r.datname)
          .filter((name) => {
            const born = parseInt(name.slice(prefix.length + 1).split("_")[0] ?? "", 36)
            return Number.isFinite(born) && born < cutoff
          })
        for (const name of stale) {
          yield* sql.unsafe(`ALTER DATABASE ${identifier(name)} WITH IS_TEMPLATE false`).pipe(Effect.ignore)
          yield* sql.unsafe(`DROP DATABASE IF EXISTS ${identifier(name)}`).pipe(Effect.ignore)
        }
        return stale.length
      }),
    url
  )
