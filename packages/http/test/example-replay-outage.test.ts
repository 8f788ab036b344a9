/**
 * The ServiceUnavailableEncoded example replayed: the server's Fragment simulator (shared with the
 * test, so it can be switched) blocks every request, as an anti-bot edge does, and an info lookup
 * (which asks Fragment at once) is answered with the documented 503.
 */
import { assert, layer } from "@effect/vitest"
import { CoreServices } from "@resale/core/CoreServices.ts"
import { FragmentSandbox } from "@resale/marketplace"
import { IsolatedPostgres } from "@resale/store/testing/IsolatedPostgres.ts"
import { GiftCatalog } from "@resale/webkit/GiftCatalog.ts"
import { Effect, Layer } from "effect"
import { SCHEMA_EXAMPLES } from "../src/api/OpenApiExamples.ts"
import { DatabasePing } from "../src/server/HttpApp.ts"
import { call } from "./Client.ts"
import { setExamplePrices, signInAs } from "./ExampleAccounts.ts"
import { differences } from "./ExampleMatch.ts"
import { makeTestServer, TestServer } from "./TestServer.ts"

const Store = IsolatedPostgres.layerStore
const Fragment = FragmentSandbox.layer() // one simulator: the server's Marketplace and the test's switch
const World = Layer.mergeAll(
  makeTestServer(Store, { sandbox: false }, DatabasePing.layer as never, GiftCatalog.layerSandbox, Fragment),
  Fragment,
  CoreServices.pipe(Layer.provideMerge(Store))
)

layer(World, { timeout: "120 seconds", excludeTestServices: true })("the marketplace-down example replayed", (it) => {
  it.effect("a lookup while Fragment is unreachable equals the 503 example", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      yield* setExamplePrices(url)
      const cookie = yield* signInAs(url, 777000160, "unlucky")
      const api = { "x-api-key": (yield* call(url, "/v2/api-key/rotate", { method: "POST", cookie })).json.api_key }
      ;(yield* FragmentSandbox).control.set({ blocked: true })
      const refused = yield* call(url, "/v2/api/getInfo", { json: SCHEMA_EXAMPLES["NameRequest"], headers: api })
      assert.strictEqual(refused.status, 503, refused.text)
      assert.deepStrictEqual(differences(SCHEMA_EXAMPLES["ServiceUnavailableEncoded"], refused.json), [])
    })
  )
})
