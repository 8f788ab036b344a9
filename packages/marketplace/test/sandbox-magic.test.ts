/**
 * The sandbox's test recipients live in the simulator alone: with `magic` it refuses, delays or
 * holds them; without it (as fragment.com, which has never heard of them) they are ordinary names,
 * and nothing in the production adapter's files names them.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { readdirSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { FRAGMENT_MAGIC } from "../src/simulator/SimulatorMagic.ts"
import { payer, signedBoc, simulated } from "./harness.ts"

describe("sandbox test recipients", () => {
  it.live("with magic: not found is refused, unknown is paid but never delivered and its signed message refused", () =>
    Effect.gen(function* () {
      const { market, sim } = yield* simulated({ magic: true })
      const refused = yield* Effect.flip(market.quoteStars({ username: FRAGMENT_MAGIC.notFound, quantity: 50, payer }))
      assert.strictEqual(refused.reason, "RecipientNotFound")
      const payment = yield* market.quoteStars({ username: FRAGMENT_MAGIC.unknown, quantity: 50, payer })
      sim.control.markPaid(payment.ref)
      const states = [
        yield* market.confirm({ kind: "stars", ref: payment.ref, reqId: payment.reqId, boc: signedBoc, payer }),
        yield* market.confirm({ kind: "stars", ref: payment.ref, reqId: payment.reqId, boc: signedBoc, payer })
      ]
      assert.notInclude(
        states.map((s) => s._tag),
        "Delivered"
      )
      assert.deepStrictEqual(sim.control.calls("confirmReq").length > 0, true)
      assert.strictEqual(sim.control.invoiceByRef(payment.ref)?.boc, undefined, "the signed message was refused")
    }).pipe(Effect.scoped)
  )

  it.live(
    "without magic (production's view) every test recipient is an ordinary name that is bought and delivered",
    () =>
      Effect.gen(function* () {
        const { market, sim } = yield* simulated()
        for (const username of Object.values(FRAGMENT_MAGIC)) {
          const payment = yield* market.quoteStars({ username, quantity: 50, payer })
          assert.isFalse(sim.control.dropsPayment(payment.comment), `${username}: no payment is lost`)
          sim.control.markPaid(payment.ref)
          let state = yield* market.confirm({
            kind: "stars",
            ref: payment.ref,
            reqId: payment.reqId,
            boc: signedBoc,
            payer
          })
          for (let i = 0; i < 5 && state._tag !== "Delivered"; i++) {
            state = yield* market.confirm({
              kind: "stars",
              ref: payment.ref,
              reqId: payment.reqId,
              boc: signedBoc,
              payer
            })
          }
          assert.strictEqual(state._tag, "Delivered", username)
        }
      }).pipe(Effect.scoped)
  )

  it("no production adapter file names a test recipient", () => {
    const src = fileURLToPath(new URL("../src/", import.meta.url))
    for (const file of readdirSync(src).filter((f) => f.endsWith(".ts"))) {
      const text = readFileSync(`${src}${file}`, "utf8")
      for (const name of Object.values(FRAGMENT_MAGIC)) assert.notInclude(text, name, file)
      assert.notInclude(text, "SimulatorMagic", file)
    }
  })
})
