/**
 * The simulator's call log stays bounded on a sandbox server that runs for days: only the newest
 * CALL_LOG_LIMIT calls (and page loads) are kept, and a wallet's signed message is logged as its
 * length and digest, never its text (the invoice keeps the one copy delivery needs).
 */
import { assert, describe, it } from "@effect/vitest"
import { beginCell, type Cell } from "@ton/core"
import { Effect } from "effect"
import { CALL_LOG_LIMIT, fieldDigest } from "../src/simulator/SimulatorCallLog.ts"
import { makeControl } from "../src/simulator/SimulatorControl.ts"
import { SimulatorState } from "../src/simulator/SimulatorState.ts"
import { payer, simulated } from "./harness.ts"

/** A signed message of many cells, as a wallet batch is (tens of kilobytes once base64). */
const bigSignedBoc = (cells: number): string => {
  let tail: Cell = beginCell().storeUint(0x7369676e, 32).endCell()
  for (let i = 0; i < cells; i++)
    tail = beginCell().storeUint(i, 32).storeBuffer(Buffer.alloc(120, i)).storeRef(tail).endCell()
  return tail.toBoc().toString("base64")
}

describe("the Fragment simulator's call log", () => {
  it("after more than the limit it holds the limit, the newest in order; reset empties it", () => {
    const state = new SimulatorState()
    const control = makeControl(state)
    const extra = 7
    for (let i = 0; i < CALL_LOG_LIMIT + extra; i++) state.logCall(i % 2 === 0 ? "even" : "odd", { n: String(i) }, 200)
    const calls = control.calls()
    assert.strictEqual(calls.length, CALL_LOG_LIMIT)
    assert.deepStrictEqual(
      calls.map((c) => Number(c.fields["n"])),
      Array.from({ length: CALL_LOG_LIMIT }, (_, i) => i + extra)
    )
    assert.deepStrictEqual(
      control.calls("odd").map((c) => Number(c.fields["n"])),
      Array.from({ length: CALL_LOG_LIMIT + extra }, (_, i) => i).filter((i) => i >= extra && i % 2 === 1)
    )
    for (let i = 0; i <= CALL_LOG_LIMIT; i++) state.pageLoads.push({ page: `/p${i}`, hash: undefined })
    assert.strictEqual(control.pageLoads().length, CALL_LOG_LIMIT)
    assert.strictEqual(control.pageLoads()[0]?.page, "/p1")
    control.reset()
    assert.deepStrictEqual([control.calls().length, control.pageLoads().length], [0, 0])
  })

  it("a long field other than the signed message is logged as its digest too; short ones as sent", () => {
    const state = new SimulatorState()
    const long = "x".repeat(5000)
    state.logCall("anything", { query: "short_user", note: long }, 200)
    assert.deepStrictEqual(makeControl(state).calls()[0]?.fields, { query: "short_user", note: fieldDigest(long) })
  })

  it.live("confirmReq's signed message is logged as its length and digest, not its text", () =>
    Effect.gen(function* () {
      const { sim, market } = yield* simulated()
      const boc = bigSignedBoc(200)
      assert.isAbove(boc.length, 30_000)
      const payment = yield* market.quoteStars({ username: "@log_watcher", quantity: 50, payer })
      yield* market.confirm({ kind: "stars", reqId: payment.reqId, ref: payment.ref, boc, payer })
      const [confirm] = sim.control.calls("confirmReq")
      assert.strictEqual(confirm?.fields["boc"], fieldDigest(boc))
      assert.include(confirm?.fields["boc"] ?? "", `${boc.length} chars`)
      assert.strictEqual(confirm?.fields["id"], payment.reqId)
      // no entry carries the message: the whole log is a few kilobytes
      const logged = JSON.stringify(sim.control.calls())
      assert.notInclude(logged, boc.slice(0, 200))
      assert.isBelow(logged.length, 5_000)
      // the invoice still has the signed message it was confirmed with
      assert.strictEqual(sim.control.invoice(payment.reqId)?.boc, boc)
    })
  )
})
