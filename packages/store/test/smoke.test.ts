import { assert, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { IsolatedPostgres } from "../src/testing/IsolatedPostgres.ts"
import { EmbeddedPostgres } from "../src/EmbeddedPostgres.ts"
import { Migrations } from "../src/Migrations.ts"
import { Layer } from "effect"

layer(IsolatedPostgres.layer)("smoke", (it) => {
  it.effect("db", () => Effect.gen(function*() {
    const sql = yield* SqlClient
    const rows = yield* sql`SELECT current_database() AS db, count(*) AS n FROM placeholder`
    console.log(rows)
    assert.ok(true)
  }))
})
layer(Migrations.layer.pipe(Layer.provideMerge(EmbeddedPostgres.layer(undefined))), { timeout: "60 seconds" })("pglite", (it) => {
  it.effect("db", () => Effect.gen(function*() {
    const sql = yield* SqlClient
    const rows = yield* sql`SELECT version() AS v, count(*) AS n FROM placeholder, now() AS t`
    console.log(rows)
    assert.ok(true)
  }))
})
