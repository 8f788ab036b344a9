/**
 * The sandbox Fragment's state file is a snapshot and then one line per write with what changed: a
 * state loaded from it is the state as last written (changed invoices, their signed messages,
 * sessions, recipients, counters, invoices no longer kept), and a last line cut short by a crash is
 * ignored.
 */
import { assert, describe, it } from "@effect/vitest"
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type SimInvoice, SimulatorState } from "../src/simulator/SimulatorState.ts"
import { makeSimulatorStore } from "../src/simulator/SimulatorStore.ts"

const invoiceOf = (state: SimulatorState, ssid: string, n: number): SimInvoice => {
  const invoice: SimInvoice = {
    reqId: state.newReqId(),
    kind: "stars",
    ssid,
    username: `fan_${n}`,
    units: 50,
    amount: 1_000_000n + BigInt(n),
    ref: `REF${n}`,
    comment: `50 Telegram Stars Ref#REF${n}`,
    evm: false,
    status: "created",
    boc: undefined,
    processingPolls: 0
  }
  state.invoices.set(invoice.reqId, invoice)
  return invoice
}

const loaded = (file: string) => {
  const state = new SimulatorState()
  const issued = makeSimulatorStore(file).load(state)
  return { state, issued }
}

describe("Fragment simulator state file: snapshot and changes", () => {
  it("a state loaded from the file is the state as last written; a cut last line is ignored", async () => {
    const dir = mkdtempSync(join(tmpdir(), "resale-fragment-journal-"))
    try {
      const file = join(dir, "fragment-sandbox.json")
      const state = new SimulatorState()
      const session = state.newSession()
      const issued = [session.ssid]
      const store = makeSimulatorStore(file)
      const first = Array.from({ length: 10 }, (_, n) => invoiceOf(state, session.ssid, n))
      await store.save(state, issued)
      // One batch's message paying all ten, then each step of a purchase written on its own.
      const boc = Buffer.alloc(3000, 7).toString("base64")
      for (const invoice of first) {
        invoice.status = "linked"
        invoice.payer = "0:abc"
        invoice.payBefore = 1_900_000_000
        await store.save(state, issued)
        invoice.boc = boc
        await store.save(state, issued)
      }
      state.recipients.set("token-1", "fan_1")
      session.latest = first[9]!.reqId
      first[0]!.status = "done"
      first[0]!.paidAt = 1_800_000_000_000
      await store.save(state, issued)
      const text = readFileSync(file, "utf8")
      assert.isAbove(text.trim().split("\n").length, 20, "changes appended, not the file rewritten")
      assert.strictEqual(text.split(boc).length - 1, 1, "the message is on disk once")

      const back = loaded(file)
      assert.deepStrictEqual(back.issued, issued)
      assert.deepStrictEqual([...back.state.invoices.entries()], [...state.invoices.entries()])
      assert.deepStrictEqual(back.state.sessions.get(session.ssid), session)
      assert.strictEqual(back.state.recipients.get("token-1"), "fan_1")
      assert.isAtLeast(back.state.nextReq, state.nextReq)

      // Finished invoices beyond the kept ones leave the file (the latest 500 and the session's latest
      // stay): the same invoices as a snapshot of the state holds.
      const more = Array.from({ length: 500 }, (_, n) => invoiceOf(state, session.ssid, 100 + n))
      for (const invoice of [...first, ...more]) invoice.status = "done"
      session.latest = more[499]!.reqId
      await store.save(state, issued)
      appendFileSync(file, '{"invoices":[{"req_id":"cut sh')
      const after = loaded(file)
      const snapshotFile = join(dir, "snapshot.json")
      await makeSimulatorStore(snapshotFile).save(state, issued)
      assert.strictEqual(readFileSync(snapshotFile, "utf8").trim().split("\n").length, 1)
      const expected = loaded(snapshotFile)
      assert.deepStrictEqual([...after.state.invoices.entries()], [...expected.state.invoices.entries()])
      assert.strictEqual(after.state.invoices.size, 501)
      for (const invoice of first.slice(0, 9)) assert.isFalse(after.state.invoices.has(invoice.reqId))
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
