import { MemoryPorts } from "@resale/core/testing/index.ts"
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { makeTestServer, TestServer } from "./TestServer.ts"

layer(makeTestServer(MemoryPorts), { timeout: "30 seconds" })("smoke", (it) => {
  it.effect("pricing", () =>
    Effect.gen(function*() {
      const { url } = yield* TestServer
      const res = yield* Effect.promise(() => fetch(`${url}/v2/api/pricing`))
      const body = yield* Effect.promise(() => res.text())
      console.log(res.status, body)
      const r2 = yield* Effect.promise(() => fetch(`${url}/v2/balance/top-up`, { method: "POST", body: "amount_uzs=abc" , headers: { "content-type": "application/x-www-form-urlencoded" } }))
      console.log(r2.status, yield* Effect.promise(() => r2.text()))
      const r3 = yield* Effect.promise(() => fetch(`${url}/v2/nope`))
      console.log(r3.status, yield* Effect.promise(() => r3.text()))
      const r4 = yield* Effect.promise(() => fetch(`${url}/v2/api/pricing`, { method: "POST" }))
      console.log(r4.status, yield* Effect.promise(() => r4.text()))
      const r5 = yield* Effect.promise(() => fetch(`${url}/v2/tickets/abc/poll?after=x`, { method: "GET" }))
      console.log(r5.status, yield* Effect.promise(() => r5.text()))
      const r6 = yield* Effect.promise(() => fetch(`${url}/v2/api/stars/buy`, { method: "POST", body: '{"username":"a","amount":"50"}', headers: { "x-api-key": "nope" } }))
      console.log(r6.status, yield* Effect.promise(() => r6.text()))
      const r7 = yield* Effect.promise(() => fetch(`${url}/v2/openapi.json`))
      console.log(r7.status, (yield* Effect.promise(() => r7.text())).slice(0, 300))
      assert.strictEqual(res.status, 200)
    }))
})
