/**
 * The sandbox's test recipients on the direct surface (`/stars/buy` over HTTP, the customer's own
 * sandbox wallet on the TON VM): what each answers, and that money moves only when it says so.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { post } from "./support/client.ts"
import { DirectTestEnv, makeDirectTestEnv } from "./support/DirectTestServer.ts"
import { balanceOf, fundedWallet, orderId, ton } from "./support/wallets.ts"

const env = makeDirectTestEnv({
  fragmentMagic: { lateMs: 4000, timeoutMs: 2500 },
  fragmentSessions: { hold: "1 second", wait: "3 seconds" }
})

layer(env, { timeout: "150 seconds", excludeTestServices: true })("direct: sandbox test recipients", (it) => {
  it.effect(
    "each recipient answers as the table of docs/sandbox.md says",
    () =>
      Effect.gen(function* () {
        const env = yield* DirectTestEnv
        const { address, phrase } = yield* fundedWallet(env, "ton24", "v5r1", ton(20))
        const buy = (username: string, id = orderId("magic")) =>
          post(env, "/stars/buy", { username, amount: 50, seed: phrase, order_id: id })
        const wallet = () => balanceOf(env, address)
        const paidBy = (before: bigint) => Effect.map(wallet(), (after) => before - after > ton(0.1))
        const said = (res: { status: number; body: Record<string, unknown>; text: string }) => {
          return `${res.status} ${String(res.body["code"] ?? "ok")}`
        }

        let before = yield* wallet()
        assert.strictEqual(said(yield* buy("sandbox_not_found")), "400 MARKETPLACE_ERROR")
        assert.isFalse(yield* paidBy(before))

        assert.strictEqual(said(yield* buy("sandbox_timeout")), "503 MARKETPLACE_TIMEOUT")
        assert.isFalse(yield* paidBy(before))
        yield* Effect.sleep("2 seconds") // let the late answer drain

        // The first payment is lost: not confirmed in time, then known expired and unpaid; a new order lands.
        const lost = orderId("lost")
        const first = yield* buy("sandbox_lost_payment", lost)
        assert.include(["400 USER_TRANSFER_FAIL", "409 PENDING_TRANSACTION"], said(first))
        yield* Effect.sleep("7 seconds")
        // The same order id again: that payment expired unpaid, so it runs again, and this one lands.
        assert.strictEqual(said(yield* buy("sandbox_lost_payment", lost)), "200 ok")
        assert.isTrue(yield* paidBy(before))

        // Paid, Fragment confirms late: "paid, not confirmed yet"; the same order id later answers its result.
        before = yield* wallet()
        const late = orderId("late")
        assert.strictEqual(said(yield* buy("sandbox_late", late)), "503 MARKETPLACE_TIMEOUT")
        assert.isTrue(yield* paidBy(before))
        yield* Effect.sleep("4 seconds")
        before = yield* wallet()
        assert.strictEqual(said(yield* buy("sandbox_late", late)), "200 ok")
        assert.isFalse(yield* paidBy(before), "the repeat pays nothing")

        // Paid, Fragment never confirms: the same answer each time, never paid twice.
        const unknown = orderId("unknown")
        before = yield* wallet()
        assert.strictEqual(said(yield* buy("sandbox_unknown", unknown)), "503 MARKETPLACE_TIMEOUT")
        assert.isTrue(yield* paidBy(before))
        before = yield* wallet()
        const again = said(yield* buy("sandbox_unknown", unknown))
        assert.notStrictEqual(again, "200 ok")
        assert.isFalse(yield* paidBy(before), "the repeat pays nothing")
      }),
    140_000
  )
})
