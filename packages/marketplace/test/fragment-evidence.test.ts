/**
 * The simulator against what public clients captured from fragment.com: the payment payload BOCs
 * (bohd4nx/pyfragment tests: five text-comment payloads, one standard padded and four url-safe
 * unpadded) come out byte for byte, and the init and link answers have the recorded shapes
 * (pyfragment fixtures `stars_invoice_response.json`, `stars_transaction_link_response.json`).
 * The state call carries no invoice id in any public client: the simulator answers for the session.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { request } from "undici"
import { Nanoton } from "@resale/core/money/Nanoton.ts"
import { extractApiHash } from "../src/FragmentTransport.ts"
import { FragmentSimulator } from "../src/simulator/FragmentSimulator.ts"
import { payer, simulated } from "./harness.ts"

/** [what to buy, Ref#, url-safe?, the captured payload] */
const CAPTURED = [
  [
    { kind: "stars", units: 50 },
    "kpJ55h3BW",
    false,
    "te6ccgEBAQEAJwAASgAAAAA1MCBUZWxlZ3JhbSBTdGFycyAKClJlZiNrcEo1NWgzQlc="
  ],
  [
    { kind: "stars", units: 1_000_000 },
    "TPoMpzC7e",
    true,
    "te6ccgEBAgEALwABTgAAAAAxMDAwMDAwIFRlbGVncmFtIFN0YXJzIAoKUmVmI1RQb01wegEABkM3ZQ"
  ],
  [
    { kind: "premium", units: 3 },
    "3pWJtbdbu",
    true,
    "te6ccgEBAgEANgABTgAAAABUZWxlZ3JhbSBQcmVtaXVtIGZvciAzIG1vbnRocyAKClJlZgEAFCMzcFdKdGJkYnU"
  ],
  [
    { kind: "premium", units: 12 },
    "rONBs6rcm",
    true,
    "te6ccgEBAgEANAABTgAAAABUZWxlZ3JhbSBQcmVtaXVtIGZvciAxIHllYXIgCgpSZWYjcgEAEE9OQnM2cmNt"
  ],
  [
    { kind: "ton", units: 1 },
    "k1zCEY1wx",
    true,
    "te6ccgEBAgEAMAABTgAAAABUZWxlZ3JhbSBhY2NvdW50IHRvcCB1cCAKClJlZiNrMXpDRQEACFkxd3g"
  ]
] as const

const post = (base: string, hash: string, cookie: string, fields: Record<string, string>) =>
  Effect.promise(async () => {
    const res = await request(`${base}/api?hash=${hash}`, {
      method: "POST",
      headers: {
        cookie,
        "content-type": "application/x-www-form-urlencoded; charset=UTF-8",
        "x-requested-with": "XMLHttpRequest"
      },
      body: new URLSearchParams(fields).toString()
    })
    return (await res.body.json()) as Record<string, unknown>
  })

describe("simulator vs captured fragment.com answers", () => {
  it.live("payment payloads are byte-identical to the captured BOCs", () =>
    Effect.gen(function* () {
      const { market, sim } = yield* simulated()
      for (const [item, ref, urlSafe, captured] of CAPTURED) {
        sim.control.set({ urlSafePayloads: urlSafe })
        sim.control.nextRefs([ref])
        const payment =
          item.kind === "stars"
            ? yield* market.quoteStars({ username: "captured_fan", quantity: item.units, payer })
            : item.kind === "premium"
              ? yield* market.quotePremium({ username: "captured_fan", months: item.units, payer })
              : yield* market.quoteTonTopup({ username: "captured_fan", amount: Nanoton.make(1_000_000_000n), payer })
        assert.strictEqual(payment.payload, captured, `${item.kind} ${item.units}`)
        assert.strictEqual(payment.ref, ref)
        yield* market.cancel(payment.kind, payment.reqId)
      }
    })
  )

  it.live("init and link answers have the recorded shapes and amounts; update*State ignores an id", () =>
    Effect.gen(function* () {
      const sim = yield* FragmentSimulator.scoped()
      const page = yield* Effect.promise(async () =>
        (await request(`${sim.url}/stars/buy`, { headers: { cookie: sim.cookies } })).body.text()
      )
      const hash = extractApiHash(page)!
      const call = (fields: Record<string, string>) => post(sim.url, hash, sim.cookies, fields)
      const found = yield* call({ method: "searchStarsRecipient", query: "fixture_fan", quantity: "" })
      const recipient = (found["found"] as Record<string, string>)["recipient"]!
      assert.match(recipient, /^[0-9a-f]+$/)
      yield* call({ method: "updateStarsBuyState", mode: "new", lv: "false", dh: "123456789" })
      sim.control.nextRefs(["kpJ55h3BW"])
      const init = yield* call({ method: "initBuyStarsRequest", recipient, quantity: "50", payment_method: "ton" })
      // stars_invoice_response.json: {"req_id","myself","to_bot","amount":"0.4609"}
      assert.deepStrictEqual(Object.keys(init).sort(), ["amount", "myself", "req_id", "to_bot"])
      assert.strictEqual(init["amount"], "0.4609")
      const reqId = String(init["req_id"])
      const link = yield* call({
        method: "getBuyStarsLink",
        transaction: "1",
        id: reqId,
        show_sender: "0",
        account: JSON.stringify({
          address: payer.address,
          publicKey: payer.publicKey,
          chain: "-239",
          walletStateInit: payer.walletStateInit
        }),
        device: JSON.stringify({
          platform: "iphone",
          appName: "Tonkeeper",
          appVersion: "26.07.1",
          maxProtocolVersion: 2,
          features: []
        })
      })
      // stars_transaction_link_response.json
      assert.deepStrictEqual(Object.keys(link).sort(), ["confirm_method", "confirm_params", "ok", "transaction"])
      assert.deepStrictEqual([link["confirm_method"], link["confirm_params"]], ["confirmReq", { id: reqId }])
      const transaction = link["transaction"] as {
        validUntil: number
        from: string
        messages: Array<Record<string, string>>
      }
      assert.deepStrictEqual(Object.keys(transaction).sort(), ["from", "messages", "validUntil"])
      assert.strictEqual(transaction.from, payer.address)
      assert.deepStrictEqual(transaction.messages, [
        {
          address: sim.walletAddress,
          amount: "460900000",
          payload: "te6ccgEBAQEAJwAASgAAAAA1MCBUZWxlZ3JhbSBTdGFycyAKClJlZiNrcEo1NWgzQlc="
        }
      ])
      // the state is the session's latest purchase: an `id` naming another invoice changes nothing
      sim.control.markPaid("kpJ55h3BW")
      const state = yield* call({
        method: "updateStarsBuyState",
        mode: "new",
        lv: "false",
        dh: "987654321",
        id: "someone-elses-invoice"
      })
      assert.deepStrictEqual(state, { ok: true, need_update: true, mode: "processing" })
    })
  )
})
