/**
 * The sandbox Fragment's sessions and invoices outlive its process: a simulator started on the state
 * file of a killed one hands out the same cookies and continues its open invoices (the signed message
 * is accepted, the paid invoice is delivered), as the sandbox world's next owner does after a takeover.
 */
import { assert, describe, it } from "@effect/vitest"
import { beginCell } from "@ton/core"
import { Effect } from "effect"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { FragmentSimulator } from "../src/simulator/FragmentSimulator.ts"
import { SimulatorState } from "../src/simulator/SimulatorState.ts"
import { makeSimulatorStore } from "../src/simulator/SimulatorStore.ts"

const call = (url: string, cookies: string, hash: string, fields: Record<string, string>) =>
  Effect.promise(async () => {
    const answer = await fetch(`${url}/api?hash=${hash}`, {
      method: "POST",
      headers: { cookie: cookies, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString()
    })
    return (await answer.json()) as Record<string, unknown>
  })

const hashOf = (url: string, cookies: string) =>
  Effect.promise(async () => {
    const page = await (await fetch(`${url}/stars/buy`, { headers: { cookie: cookies } })).text()
    return /hash=([0-9a-f]+)/.exec(page)?.[1] ?? ""
  })

describe("Fragment simulator state on disk", () => {
  it.live("a simulator started on a killed one's file continues its sessions and open invoices", () =>
    Effect.gen(function* () {
      const dir = mkdtempSync(join(tmpdir(), "resale-fragment-state-"))
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
      const stateFile = join(dir, "fragment-sandbox.json")
      const first = yield* Effect.promise(() => FragmentSimulator.start({ stateFile, sessions: 2 }))
      const hash = yield* hashOf(first.url, first.cookies)
      const found = yield* call(first.url, first.cookies, hash, {
        method: "searchStarsRecipient",
        query: "durable_fan"
      })
      const recipient = (found["found"] as { recipient: string }).recipient
      const opened = yield* call(first.url, first.cookies, hash, {
        method: "initBuyStarsRequest",
        recipient,
        quantity: "50",
        payment_method: "ton"
      })
      const reqId = String(opened["req_id"])
      const ref = first.control.invoice(reqId)!.ref
      // The process dies: nothing is closed or flushed on the way out.
      yield* Effect.promise(() => first.close())

      const second = yield* Effect.promise(() => FragmentSimulator.start({ stateFile, sessions: 2 }))
      yield* Effect.addFinalizer(() => Effect.promise(() => second.close()))
      assert.strictEqual(second.cookies, first.cookies, "the same session cookies")
      assert.deepStrictEqual(second.moreSessions, first.moreSessions)
      assert.strictEqual(second.control.invoice(reqId)?.ref, ref, "the open invoice, with its Ref#")
      second.control.markPaid(ref)
      const again = yield* hashOf(second.url, second.cookies)
      assert.strictEqual(again, hash, "the session's api hash too")
      const state = yield* call(second.url, second.cookies, again, { method: "updateStarsBuyState", mode: "new" })
      assert.strictEqual(state["mode"], "processing")
      const done = yield* call(second.url, second.cookies, again, { method: "updateStarsBuyState", mode: "processing" })
      assert.strictEqual(done["mode"], "done")
      assert.strictEqual(second.control.invoice(reqId)?.status, "done")
      // A new invoice does not reuse a req_id the first process handed out.
      const next = yield* call(second.url, second.cookies, again, {
        method: "initBuyStarsRequest",
        recipient,
        quantity: "60",
        payment_method: "ton"
      })
      assert.notStrictEqual(next["req_id"], reqId)
    }).pipe(Effect.scoped)
  )

  it.live("under a burst of answers, each answer's change is on disk before the answer leaves", () =>
    Effect.gen(function* () {
      const dir = mkdtempSync(join(tmpdir(), "resale-fragment-burst-"))
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
      const stateFile = join(dir, "fragment-sandbox.json")
      const sim = yield* Effect.promise(() => FragmentSimulator.start({ stateFile, sessions: 2 }))
      yield* Effect.addFinalizer(() => Effect.promise(() => sim.close()))
      const hash = yield* hashOf(sim.url, sim.cookies)
      // 20 searches at once: saves join a write still waiting for its turn, and none may answer early.
      const names = Array.from({ length: 20 }, (_, i) => `burst_fan_${i}`)
      yield* Effect.forEach(
        names,
        (query) =>
          Effect.gen(function* () {
            const found = yield* call(sim.url, sim.cookies, hash, { method: "searchStarsRecipient", query })
            const token = (found["found"] as { recipient: string }).recipient
            const onDisk = new SimulatorState()
            makeSimulatorStore(stateFile).load(onDisk)
            assert.isTrue(onDisk.recipients.has(token), `${query}'s recipient is on disk when its answer arrives`)
          }),
        { concurrency: "unbounded" }
      )
    }).pipe(Effect.scoped)
  )

  it.live("a signed message that paid several invoices is kept once, and each invoice gets it back", () =>
    Effect.gen(function* () {
      const dir = mkdtempSync(join(tmpdir(), "resale-fragment-bocs-"))
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
      const stateFile = join(dir, "fragment-sandbox.json")
      const first = yield* Effect.promise(() => FragmentSimulator.start({ stateFile }))
      const hash = yield* hashOf(first.url, first.cookies)
      const open = (query: string) =>
        Effect.gen(function* () {
          const found = yield* call(first.url, first.cookies, hash, { method: "searchStarsRecipient", query })
          const recipient = (found["found"] as { recipient: string }).recipient
          const opened = yield* call(first.url, first.cookies, hash, {
            method: "initBuyStarsRequest",
            recipient,
            quantity: "50",
            payment_method: "ton"
          })
          return String(opened["req_id"])
        })
      const reqIds = [yield* open("batch_fan_a"), yield* open("batch_fan_b")]
      // One message paying both, as a wallet batch's does (any BOC will do here).
      const boc = beginCell().storeUint(0xba7c4, 32).storeStringTail("a batch").endCell().toBoc().toString("base64")
      for (const id of reqIds) {
        const confirmed = yield* call(first.url, first.cookies, hash, { method: "confirmReq", id, boc })
        assert.deepStrictEqual(confirmed, { ok: true })
      }
      yield* Effect.promise(() => first.close())
      const text = readFileSync(stateFile, "utf8")
      assert.strictEqual(text.split(boc).length - 1, 1, "the message is on disk once")

      const second = yield* Effect.promise(() => FragmentSimulator.start({ stateFile }))
      for (const id of reqIds) assert.strictEqual(second.control.invoice(id)?.boc, boc)
      yield* Effect.promise(() => second.close())

      // A file written before messages were kept once (one JSON snapshot, each invoice with its own copy)
      // still loads.
      const older = {
        issued: [],
        sessions: [],
        invoices: reqIds.map((id) => {
          const i = second.control.invoice(id)!
          return {
            req_id: i.reqId,
            kind: i.kind,
            ssid: i.ssid,
            username: i.username,
            units: i.units,
            amount: i.amount.toString(),
            ref: i.ref,
            comment: i.comment,
            evm: i.evm,
            status: i.status,
            boc: i.boc,
            processing_polls: i.processingPolls,
            paid_at: null
          }
        }),
        recipients: [],
        next_req: 10,
        drop_refs: [],
        drop_next: false
      }
      writeFileSync(stateFile, JSON.stringify(older))
      const third = yield* Effect.promise(() => FragmentSimulator.start({ stateFile }))
      yield* Effect.addFinalizer(() => Effect.promise(() => third.close()))
      for (const id of reqIds) assert.strictEqual(third.control.invoice(id)?.boc, boc)
    }).pipe(Effect.scoped)
  )
})
