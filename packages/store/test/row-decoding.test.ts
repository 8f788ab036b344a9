/**
 * Rows decoded, not cast: the column codecs keep exact integers, and a row that no migration allows
 * (here a jsonb item the core cannot read) is a defect naming its table, never a half-read order.
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { Nanoton, OrderId, Uzs } from "@resale/core"
import { Orders } from "@resale/core/ports"
import { Cause, Effect, Exit, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { IntColumn, intAs, NanotonColumn, RowDecodeError } from "../src/Rows.ts"
import { IsolatedPostgres } from "../src/testing/IsolatedPostgres.ts"
import { newUser, t0 } from "./contract/support.ts"

const decodeInt = Schema.decodeUnknownExit(IntColumn)
const decodeOrderId = Schema.decodeUnknownExit(intAs(OrderId))

describe("column codecs", () => {
  it("int8 arrives as bigint and leaves as the same safe integer; past 2^53 it fails, never rounds", () => {
    assert.deepStrictEqual(decodeInt(9_007_199_254_740_991n), Exit.succeed(Number.MAX_SAFE_INTEGER))
    assert.deepStrictEqual(decodeInt(-42n), Exit.succeed(-42))
    assert.deepStrictEqual(decodeInt("12345"), Exit.succeed(12345))
    assert.isTrue(Exit.isFailure(decodeInt(9_007_199_254_740_992n)))
    assert.isTrue(Exit.isFailure(decodeInt("12.5")))
    assert.isTrue(Exit.isFailure(decodeInt(null)))
  })

  it("nanoton stays an exact bigint, from numeric text or int8; negative or fractional fails", () => {
    const decodeNano = Schema.decodeUnknownExit(NanotonColumn)
    assert.deepStrictEqual(decodeNano("123456789012345678901"), Exit.succeed(Nanoton.make(123456789012345678901n)))
    assert.deepStrictEqual(decodeNano(5n), Exit.succeed(Nanoton.make(5n)))
    assert.isTrue(Exit.isFailure(decodeNano("-1")))
    assert.isTrue(Exit.isFailure(decodeNano("1.5")))
  })

  it("an id column takes the brand's own check: positive", () => {
    assert.deepStrictEqual(decodeOrderId(7n), Exit.succeed(OrderId.make(7)))
    assert.isTrue(Exit.isFailure(decodeOrderId(0n)))
  })
})

layer(IsolatedPostgres.layerStore)("rows on PostgreSQL", (it) => {
  it.effect("an order row the core cannot read is a defect naming the table", () =>
    Effect.gen(function* () {
      const orders = yield* Orders
      const sql = yield* SqlClient
      const user = yield* newUser(11)
      const order = yield* orders.insert(
        { userId: user.id, recipient: "durov", item: { kind: "stars", stars: 50 }, priceUzs: Uzs.make(11_500) },
        t0
      )
      yield* sql`UPDATE orders SET item = '{"kind":"stars","stars":"fifty"}'::jsonb WHERE id = ${order.id}`.pipe(
        Effect.orDie
      )
      const exit = yield* Effect.exit(orders.find(order.id))
      assert.isTrue(Exit.isFailure(exit))
      const defect = Exit.isFailure(exit) ? Cause.squash(exit.cause) : undefined
      assert.isTrue(defect instanceof RowDecodeError && defect.table === "orders", String(defect))
    })
  )
})
