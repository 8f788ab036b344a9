/**
 * The AdminStatus example replayed on a database of its own (the panel counts the whole fleet): one
 * Fragment session with the last hour's purchases, one hot-wallet batch in flight, five balance orders
 * (three waiting, two being carried) and one worker's beat with its hot-wallet read. Compared as
 * example-replay.test.ts compares; the seconds a worker was silent and an order waited are compared
 * by range, as they tick while the request travels.
 */
import { assert, layer } from "@effect/vitest"
import type { UserId } from "@resale/core/ids.ts"
import { Balances } from "@resale/core/ledger/Balances.ts"
import { Nanoton } from "@resale/core/money/Nanoton.ts"
import { OrderService } from "@resale/core/orders/OrderService.ts"
import { FleetStatus } from "@resale/core/ports/FleetStatus.ts"
import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { SCHEMA_EXAMPLES } from "../src/api/OpenApiExamples.ts"
import { call } from "./Client.ts"
import { ExampleWorld, setExamplePrices, signInAs } from "./ExampleAccounts.ts"
import { differences } from "./ExampleMatch.ts"
import { TestServer } from "./TestServer.ts"

interface Documented {
  readonly sessions: ReadonlyArray<{ session: string; purchases_last_hour: Record<"accepted" | "unsent", number> }>
  readonly hot_wallet: { type: "highload-v3"; address: string; balance_ton: string }
  readonly batches_in_flight: number
  readonly queue: { queued: number; processing: number; oldest_waiting_seconds: number }
  readonly workers: ReadonlyArray<{ worker: string; silent_seconds: number }>
}
const documented = SCHEMA_EXAMPLES["AdminStatus"] as unknown as Documented

const ago = (seconds: number) => new Date(Date.now() - seconds * 1000)
/** A count of seconds read some moments after `from` seconds were planted. */
const secondsSince = (from: number) => (value: unknown) =>
  typeof value === "number" && Number.isInteger(value) && value >= from && value < from + 30

layer(ExampleWorld, { timeout: "120 seconds", excludeTestServices: true })("the status example replayed", (it) => {
  it.effect(
    "the operator's status panel equals its example",
    () =>
      Effect.gen(function* () {
        const { url } = yield* TestServer
        const sql = yield* SqlClient
        const op = yield* setExamplePrices(url)

        // The balance orders: all bought, the first ones taken by the worker.
        const cookie = yield* signInAs(url, 777000150, "queue_filler")
        const userId = (yield* call(url, "/v2/dashboard", { cookie })).json.user.user_id as UserId
        yield* (yield* Balances)
          .adjust({ userId, amount: 500_000, reason: "example", key: "example-status" })
          .pipe(Effect.orDie)
        const api = { "x-api-key": (yield* call(url, "/v2/api-key/rotate", { method: "POST", cookie })).json.api_key }
        const { queued, processing, oldest_waiting_seconds } = documented.queue
        for (let i = 0; i < queued + processing; i++) {
          const bought = yield* call(url, "/v2/api/stars/buy", {
            json: SCHEMA_EXAMPLES["StarsOrderRequest"],
            headers: api
          })
          assert.strictEqual(bought.status, 200, bought.text)
        }
        const orders = yield* OrderService
        for (let i = 0; i < processing; i++) yield* orders.claimNext
        yield* sql`UPDATE orders SET created_at = ${ago(oldest_waiting_seconds)}`

        // The session's last hour at Fragment: accepted and unsent purchases.
        const [session] = documented.sessions
        const { accepted, unsent } = session!.purchases_last_hour
        yield* sql`INSERT INTO marketplace_sessions (session) VALUES (${session!.session})`
        yield* sql`
          INSERT INTO marketplace_purchases (req_id, session, ref, pay_to, amount_nano, confirm, created_at)
          SELECT 'req-' || i, ${session!.session}, 'ref-' || i, 'UQpay', 1000,
                 CASE WHEN i <= ${accepted} THEN 'accepted' ELSE 'unsent' END, ${ago(600)}
            FROM generate_series(1, ${accepted + unsent}) AS i`

        // The hot wallet: its batches signed, not yet settled, and a worker's read of it.
        const wallet = documented.hot_wallet
        for (let slot = 0; slot < documented.batches_in_flight; slot++)
          yield* sql`
            INSERT INTO wallet_batches (network, wallet_address, state, seqno, external_hash, valid_until,
                                        prepared, payments, slot, created_at, updated_at)
            VALUES ('mainnet', ${wallet.address}, 'signed', ${slot + 1}, ${"ab".repeat(32)}, 0, '{}', 1, ${slot},
                    ${ago(20)}, ${ago(20)})`
        const [worker] = documented.workers
        yield* (yield* FleetStatus).beat(
          {
            worker: worker!.worker,
            startedAt: ago(3_600),
            beatAt: ago(worker!.silent_seconds),
            hotWallet: {
              report: {
                funded: true,
                version: wallet.type,
                address: wallet.address,
                state: "active",
                balance: Nanoton.make(BigInt(wallet.balance_ton.replace(".", ""))),
                syncTime: Math.floor(Date.now() / 1000) - 30
              },
              readAt: ago(30)
            }
          },
          ago(86_400)
        )

        const status = yield* call(url, "/v2/admin/status", { cookie: op })
        assert.strictEqual(status.status, 200, status.text)
        assert.deepStrictEqual(
          differences(SCHEMA_EXAMPLES["AdminStatus"], status.json, "$", {
            oldest_waiting_seconds: secondsSince(oldest_waiting_seconds),
            silent_seconds: secondsSince(worker!.silent_seconds)
          }),
          []
        )
      }),
    { timeout: 120_000 }
  )
})
