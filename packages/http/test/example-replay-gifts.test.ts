/**
 * The Gifts and Gift examples replayed: a production server (not the sandbox) whose Telegram account
 * lists just the documented gift, with no picture of it, at the documented star price. The test
 * server otherwise lists the sandbox's catalogue, whose pictures are drawn data URLs.
 */
import { assert, layer } from "@effect/vitest"
import { GiftSender } from "@resale/core/ports/GiftSender.ts"
import { IsolatedPostgres } from "@resale/store/testing/IsolatedPostgres.ts"
import { GiftCatalog } from "@resale/webkit/GiftCatalog.ts"
import { Effect, Layer } from "effect"
import { SCHEMA_EXAMPLES } from "../src/api/OpenApiExamples.ts"
import { DatabasePing } from "../src/server/HttpApp.ts"
import { call } from "./Client.ts"
import { setExamplePrices, signInAs } from "./ExampleAccounts.ts"
import { differences } from "./ExampleMatch.ts"
import { makeTestServer, TestServer } from "./TestServer.ts"

const documented = SCHEMA_EXAMPLES["Gift"] as { gift_id: string; title: string; stars: number }

/** Telegram's answer for an account whose catalogue is the documented gift (no gift is sent here). */
const Telegram = Layer.succeed(GiftSender)(
  GiftSender.of({
    accounts: ["main"],
    catalogue: Effect.succeed([
      {
        id: documented.gift_id,
        title: documented.title,
        stars: documented.stars,
        remaining: null,
        total: null,
        soldOut: false
      }
    ]),
    send: () => Effect.die("the gift examples send no gift"),
    findSent: () => Effect.die("the gift examples send no gift")
  })
)

const World = makeTestServer(
  IsolatedPostgres.layerStore,
  { sandbox: false },
  DatabasePing.layer as never,
  GiftCatalog.layer.pipe(Layer.provide(Telegram))
)

layer(World, { timeout: "120 seconds", excludeTestServices: true })("the gift examples replayed", (it) => {
  it.effect("the gift list and its gift equal their examples", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      yield* setExamplePrices(url)
      const cookie = yield* signInAs(url, 777000150, "gifter")
      const key = (yield* call(url, "/v2/api-key/rotate", { method: "POST", cookie })).json.api_key as string
      const gifts = yield* call(url, "/v2/api/gifts", { headers: { "x-api-key": key } })
      assert.strictEqual(gifts.status, 200, gifts.text)
      assert.deepStrictEqual(
        {
          Gifts: differences(SCHEMA_EXAMPLES["Gifts"], gifts.json),
          Gift: differences(SCHEMA_EXAMPLES["Gift"], gifts.json.gifts[0])
        },
        { Gifts: [], Gift: [] }
      )
    })
  )
})
