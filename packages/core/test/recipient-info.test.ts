import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { RecipientInfo } from "../src/accounts/RecipientInfo.ts"
import { Marketplace, MarketplaceError } from "../src/ports/Marketplace.ts"
import { signUp } from "../src/testing/fixtures.ts"
import { layerMemory } from "../src/testing/MemoryPorts.ts"

/** A marketplace that knows only @durov and counts the lookups it was asked. */
const asked: Array<string> = []
const FakeMarketplace = Layer.succeed(Marketplace)(
  Marketplace.of({
    lookupRecipient: (kind, username) =>
      Effect.suspend(() => {
        asked.push(username)
        return username === "durov"
          ? Effect.succeed({ kind, username, token: "t", name: "Pavel" })
          : Effect.fail(new MarketplaceError({ reason: "RecipientNotFound", message: "no such user" }))
      }),
    quoteStars: () => Effect.die("unused"),
    quotePremium: () => Effect.die("unused"),
    quoteTonTopup: () => Effect.die("unused"),
    confirm: () => Effect.die("unused"),
    cancel: () => Effect.die("unused")
  })
)

const layer = RecipientInfo.layer.pipe(Layer.provideMerge(layerMemory), Layer.provide(FakeMarketplace))

describe("RecipientInfo.lookup", () => {
  it.effect("counts a lookup first; an unknown user is none; over the daily quota the marketplace is not asked", () =>
    Effect.gen(function* () {
      asked.length = 0
      const info = yield* RecipientInfo
      const user = yield* signUp()
      const found = yield* info.lookup(user.id, "durov")
      assert.deepStrictEqual([Option.map(found.recipient, (r) => r.name), found.usage.used], [Option.some("Pavel"), 1])
      const missing = yield* info.lookup(user.id, "nobody_here")
      assert.deepStrictEqual([Option.isNone(missing.recipient), missing.usage.used], [true, 2])
      for (let i = 3; i <= missing.usage.limit; i++) yield* info.lookup(user.id, "durov")
      const over = yield* Effect.flip(info.lookup(user.id, "durov"))
      assert.strictEqual(over._tag, "InfoLookupQuotaExceeded")
      assert.strictEqual(asked.length, missing.usage.limit)
    }).pipe(Effect.provide(layer))
  )
})
