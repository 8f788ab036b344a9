import { Effect, type Scope } from "effect"
import type { SqlError } from "effect/sql/SqlError"
import { randomBytes } from "node:crypto"
import { createDatabase, databaseUrl, dropDatabase, withAdmin } from "./TestDatabase.ts"

/**
 * Copies of a run's template, reused within one test process. CREATE DATABASE … TEMPLATE and DROP
 * DATABASE each cost seconds on a busy server (they write and sync every file of the copy); emptying
 * the tables of a used copy costs milliseconds. A copy goes back to the pool only when its schema is
 * still the template's; otherwise, or if emptying fails, it is dropped. Copies are named
 * `<template>_<random>`, so the run's teardown (`globalSetup.ts`) drops what the pool still holds.
 */

// Per template: emptied copies ready for the next user, and the schema of a fresh copy.
const idle = new Map<string, Array<string>>()
const schemas = new Map<string, string>()

// Everything a test could change besides rows: tables, columns, indexes, constraints, triggers,
// functions, sequences, schemas, the migrations applied and database-level settings.
const SCHEMA = `
  SELECT md5(string_agg(x, ',' ORDER BY x)) AS schema FROM (
    SELECT n.nspname || '.' || c.relname || ':' || c.relkind::text || ':' || coalesce((
      SELECT string_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod) || ' ' || a.attnotnull::text, ';' ORDER BY a.attnum)
      FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped), '') AS x
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast')
    UNION ALL SELECT pg_get_indexdef(indexrelid) FROM pg_index
      WHERE indrelid IN (SELECT oid FROM pg_class WHERE relnamespace = 'public'::regnamespace)
    UNION ALL SELECT conrelid::regclass || '.' || conname || ':' || pg_get_constraintdef(oid) FROM pg_constraint
      WHERE connamespace = 'public'::regnamespace
    UNION ALL SELECT tgrelid::regclass || '.' || tgname || ':' || tgenabled::text FROM pg_trigger WHERE NOT tgisinternal
    UNION ALL SELECT proname || ':' || md5(prosrc) FROM pg_proc WHERE pronamespace = 'public'::regnamespace
    UNION ALL SELECT 'schema:' || nspname FROM pg_namespace
    UNION ALL SELECT 'migration:' || migration_id || ':' || name FROM effect_sql_migrations
    UNION ALL SELECT 'setting:' || array_to_string(setconfig, ';') FROM pg_db_role_setting
      WHERE setdatabase = (SELECT oid FROM pg_database WHERE datname = current_database())
  ) s`

// Others still connected are cut off; rows are deleted with triggers off (the ledger's entries are
// insert-only by trigger; session_replication_role needs a superuser, else the copy is dropped);
// sequences restart, as in a fresh copy.
const EMPTY = `
  DO $$ DECLARE r record; BEGIN
    PERFORM pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid();
    SET LOCAL session_replication_role = replica;
    FOR r IN SELECT format('%I.%I', schemaname, tablename) AS t FROM pg_tables
      WHERE schemaname = 'public' AND tablename <> 'effect_sql_migrations' LOOP
      EXECUTE 'DELETE FROM ' || r.t;
    END LOOP;
    FOR r IN SELECT seqrelid::regclass AS s, seqstart FROM pg_sequence LOOP
      PERFORM setval(r.s, r.seqstart, false);
    END LOOP;
  END $$`

const schemaOf = (name: string): Effect.Effect<string, SqlError> =>
  withAdmin(
    (sql) => Effect.map(sql.unsafe<{ schema: string }>(SCHEMA), (rows) => rows[0]?.schema ?? ""),
    databaseUrl(name)
  )

/** Empties `name` and returns it to the pool if its schema is unchanged; drops it otherwise. */
const release = (template: string, name: string): Effect.Effect<void> =>
  Effect.gen(function* () {
    const schema = yield* schemaOf(name)
    if (schema !== schemas.get(template)) return yield* dropDatabase(name)
    yield* withAdmin((sql) => sql.unsafe(EMPTY), databaseUrl(name))
    idle.set(template, [...(idle.get(template) ?? []), name])
  }).pipe(
    Effect.catchCause(() => dropDatabase(name)),
    Effect.orDie
  )

/** A copy of `template` for this scope: an emptied one from the pool, or a new one. Its name. */
export const pooledCopy = (template: string): Effect.Effect<string, SqlError, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.gen(function* () {
      const reused = idle.get(template)?.pop()
      if (reused !== undefined) return reused
      const name = `${template}_${randomBytes(6).toString("hex")}`
      yield* createDatabase(name, template)
      if (!schemas.has(template)) schemas.set(template, yield* schemaOf(name))
      return name
    }),
    (name) => release(template, name)
  )

/** Drops every copy of `template` (at the end of the run, when no test uses them any more). */
export const dropCopies = (template: string): Effect.Effect<void, SqlError> =>
  withAdmin((sql) =>
    Effect.gen(function* () {
      const rows = yield* sql<{
        datname: string
      }>`SELECT datname FROM pg_database WHERE datname LIKE ${`${template}\\_%`}`
      yield* Effect.forEach(rows, (row) => dropDatabase(row.datname), { concurrency: 4, discard: true })
    })
  )
