/**
 * `GET /v2/admin/status` against a real server on PostgreSQL: operators only; it shows what the fleet
 * wrote to the shared store (a worker's beat with its hot-wallet read, a silent worker, the queue).
 */
import { assert, layer } from "@effect/vitest"
import { Nanoton } from "@resale/core/money/Nanoton.ts"
import { FleetStatus } from "@resale/core/ports/FleetStatus.ts"
import { IsolatedPostgres } from "@resale/store/testing/IsolatedPostgres.ts"
import { Effect, Layer } from "effect"
import { DatabasePing } from "../src/server/HttpApp.ts"
import { adminSignIn, call, signIn } from "./Client.ts"
import { makeTestServer, TestServer } from "./TestServer.ts"

const Store = IsolatedPostgres.layerStore
const World = Layer.mergeAll(makeTestServer(Store, {}, DatabasePing.layer as never), Store)

const ago = (seconds: number) => new Date(Date.now() - seconds * 1000)

layer(World, { timeout: "60 seconds", excludeTestServices: true })("operator status panel", (it) => {
  it.effect("operators read every worker's beat, the freshest hot-wallet read and the queue; shoppers cannot", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const fleet = yield* FleetStatus
      yield* fleet.beat(
        {
          worker: "host-a:101",
          startedAt: ago(120),
          beatAt: ago(2),
          hotWallet: {
            report: {
              funded: true,
              version: "highload-v3",
              address: "UQhot",
              state: "active",
              balance: Nanoton.make(12_345_678_901n),
              syncTime: 1_795_000_000
            },
            readAt: ago(20)
          }
        },
        ago(86_400)
      )
      yield* fleet.beat({ worker: "host-b:202", startedAt: ago(3600), beatAt: ago(900), hotWallet: null }, ago(86_400))

      const shopper = yield* signIn(url, 97001, "curious")
      const refused = yield* call(url, "/v2/admin/status", { cookie: shopper })
      assert.include([401, 403], refused.status, refused.text)
      assert.notInclude(refused.text, "host-a")

      const op = yield* adminSignIn(url)
      const answer = yield* call(url, "/v2/admin/status", { cookie: op })
      assert.strictEqual(answer.status, 200, answer.text)
      const status = answer.json
      assert.deepStrictEqual(
        status.workers.map((w: { worker: string; alive: boolean }) => [w.worker, w.alive]),
        [
          ["host-a:101", true],
          ["host-b:202", false]
        ]
      )
      assert.strictEqual(status.hot_wallet.balance_ton, "12.345678901")
      assert.strictEqual(status.hot_wallet.type, "highload-v3")
      assert.strictEqual(status.last_block_at, new Date(1_795_000_000 * 1000).toISOString())
      assert.deepStrictEqual(status.queue, {
        queued: 0,
        processing: 0,
        needs_attention: 0,
        oldest_waiting_order_id: null,
        oldest_waiting_seconds: null
      })
      assert.strictEqual(status.batches_in_flight, 0)
      assert.deepStrictEqual(status.sessions, [])
    })
  )
})
