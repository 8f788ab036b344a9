/**
 * Vitest `globalSetup`: once per test run (per vitest project that lists it), creates a migrated template
 * database with a name unique to this run, hands its name to the test files (`inject("resaleTemplateDatabase")`,
 * read by `IsolatedPostgres`) and drops it and its copies at teardown. Runs in parallel with other runs on the same server.
 *
 *   // packages/<pkg>/vitest.config.ts
 *   test: { globalSetup: ["../store/src/testing/globalSetup.ts"] }
 */
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Redacted } from "effect"
import type { TestProject } from "vitest/node"
import { Migrations } from "../Migrations.ts"
import { dropCopies } from "./DatabasePool.ts"
import { createDatabase, databaseUrl, dropDatabase, dropStale, freezeAsTemplate, uniqueName } from "./TestDatabase.ts"

declare module "vitest" {
  export interface ProvidedContext {
    /** Name of this run's migrated template database on the test server. */
    resaleTemplateDatabase: string
  }
}

export const templatePrefix = "resale_tpl"

/** Creates and migrates a fresh template database; returns its name. */
export const createTemplate: Effect.Effect<string, unknown> = Effect.gen(function* () {
  // Clean what killed runs left, but only old ones: a young one may belong to a run in progress.
  yield* dropStale(templatePrefix).pipe(Effect.ignore)
  yield* dropStale("resale_t").pipe(Effect.ignore)
  const name = uniqueName(templatePrefix)
  yield* createDatabase(name)
  yield* Migrations.run.pipe(
    Effect.provide(Layer.fresh(PgClient.layer({ url: Redacted.make(databaseUrl(name)), maxConnections: 1 }))),
    Effect.tapCause(() => dropDatabase(name).pipe(Effect.ignore))
  )
  // After this no one can connect, so every CREATE DATABASE … TEMPLATE finds it idle.
  yield* freezeAsTemplate(name)
  return name
})

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const name = await Effect.runPromise(createTemplate)
  project.provide("resaleTemplateDatabase", name)
  return async () => {
    await Effect.runPromise(Effect.andThen(dropCopies(name), dropDatabase(name)))
  }
}
