/**
 * The sandbox Fragment's sessions and invoices outlive its process: a simulator started on the state
 * file of a killed one hands out the same cookies and continues its open invoices (the signed message
 * is accepted, the paid invoice is delivered), as the sandbox world's next owner does after a takeover.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { FragmentSimulator } from "../src/simulator/FragmentSimulator.ts"

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
})
