import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

export default Effect.gen(function*() {
  const sql = yield* SqlClient
  yield* sql`CREATE TABLE placeholder (id int PRIMARY KEY)`
})
