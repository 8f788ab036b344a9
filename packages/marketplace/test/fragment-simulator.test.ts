/**
 * The simulator itself, spoken to as a plain HTTP client would (undici), plus sandbox mode where
 * delivery waits for the payment to be seen on chain, and the config-driven adapter layer.
 */
import { assert, describe, it } from "@effect/vitest"
import { Address, beginCell, external, storeMessage } from "@ton/core"
import { Effect, Redacted } from "effect"
import { request } from "undici"
import { nanotonFromDecimal } from "@resale/core/money/Nanoton.ts"
import { Marketplace } from "@resale/core/ports/Marketplace.ts"
import { FragmentMarketplace } from "../src/FragmentMarketplace.ts"
import { parseCommentPayload } from "../src/FragmentPayload.ts"
import { extractApiHash } from "../src/FragmentTransport.ts"
import { FragmentSandbox } from "../src/simulator/FragmentSandbox.ts"
import { FragmentSimulator, SANDBOX_FRAGMENT_WALLET } from "../src/simulator/FragmentSimulator.ts"
import { payer, signedBoc, simulated } from "./harness.ts"

const get = (url: string, cookie: string) =>
  Effect.promise(async () => {
    const res = await request(url, { headers: { cookie } })
    return { status: res.statusCode, text: await res.body.text() }
  })

const api = (base: string, hash: string, cookie: string, fields: Record<string, string>) =>
  Effect.promise(async () => {
    const res = await request(`${base}/api?hash=${hash}`, {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded; charset=UTF-8" },
      body: new URLSearchParams(fields).toString()
    })
    return { status: res.statusCode, json: (await res.body.json()) as Record<string, unknown> }
  })

describe("Fragment simulator wire format", () => {
  it.live("pages carry ajInit with an escaped apiUrl; hashes are bound to the session", () =>
    Effect.gen(function* () {
      const sim = yield* FragmentSimulator.scoped()
      const page = yield* get(`${sim.url}/premium/gift`, sim.cookies)
      assert.strictEqual(page.status, 200)
      assert.match(page.text, /ajInit\(\{.*"apiUrl":"\\\/api\?hash=[0-9a-f]+"/)
      const hash = extractApiHash(page.text)!
      const other = sim.control.newSession()
      const otherHash = extractApiHash((yield* get(`${sim.url}/premium/gift`, other)).text)!
      assert.notStrictEqual(hash, otherHash)

      const ok = yield* api(sim.url, hash, sim.cookies, {
        method: "searchPremiumGiftRecipient",
        query: "wire_user",
        months: "3"
      })
      assert.strictEqual(ok.status, 200)
      assert.strictEqual((ok.json["found"] as Record<string, unknown>)["name"], "Wire_user")
      const foreign = yield* api(sim.url, otherHash, sim.cookies, {
        method: "searchPremiumGiftRecipient",
        query: "wire_user"
      })
      assert.deepStrictEqual(foreign.json, { error: "Bad request" })
      const unknown = yield* api(sim.url, hash, sim.cookies, { method: "doSomethingElse" })
      assert.deepStrictEqual(unknown.json, { error: "Invalid method" })
      sim.control.rotateHash()
      const stale = yield* api(sim.url, hash, sim.cookies, { method: "searchPremiumGiftRecipient", query: "wire_user" })
      assert.deepStrictEqual(stale.json, { error: "Bad request" })
    })
  )

  it.live("QR mode: link without transaction, rawRequest message, checkReq until done", () =>
    Effect.gen(function* () {
      const sim = yield* FragmentSimulator.scoped()
      const hash = extractApiHash((yield* get(`${sim.url}/stars/buy`, sim.cookies)).text)!
      const call = (fields: Record<string, string>) =>
        api(sim.url, hash, sim.cookies, fields).pipe(Effect.map((r) => r.json))
      const found = yield* call({ method: "searchStarsRecipient", query: "qr_user", quantity: "" })
      const recipient = (found["found"] as Record<string, string>)["recipient"]!
      yield* call({ method: "updateStarsBuyState", mode: "new", lv: "false", dh: "123456789" })
      const init = yield* call({ method: "initBuyStarsRequest", recipient, quantity: "500", payment_method: "ton" })
      assert.strictEqual(init["amount"], "4.609")
      const reqId = String(init["req_id"])
      const qr = yield* call({ method: "getBuyStarsLink", id: reqId, show_sender: "0" })
      assert.strictEqual(qr["check_method"], "checkReq")
      assert.deepStrictEqual(qr["check_params"], { id: reqId })
      const raw = yield* get(`${sim.url}/tonkeeper/rawRequest?id=${reqId}&qr=1`, "")
      const message = JSON.parse(raw.text).body.params.messages[0]
      assert.strictEqual(message.amount, "4609000000")
      assert.strictEqual(
        parseCommentPayload(message.payload)?.comment,
        `500 Telegram Stars \n\nRef#${sim.control.invoice(reqId)!.ref}`
      )
      assert.deepStrictEqual(yield* call({ method: "checkReq", id: reqId }), { ok: true, confirmed: false })
      sim.control.markPaid(sim.control.invoice(reqId)!.ref)
      // the page polls its state by its dh nonce: new -> processing -> done
      const modes = []
      for (let i = 0; i < 2; i++)
        modes.push((yield* call({ method: "updateStarsBuyState", mode: "new", lv: "false", dh: "123456789" }))["mode"])
      assert.deepStrictEqual(modes, ["processing", "done"])
      assert.deepStrictEqual(yield* call({ method: "checkReq", id: reqId }), { ok: true, confirmed: true })
      const late = yield* call({ method: "cancelInvoice", req_id: reqId })
      assert.deepStrictEqual(late, { error: "Request is already paid." })
    })
  )
  it.live("EVM payment methods get {ok, evm} instead of a TON message; others are refused", () =>
    Effect.gen(function* () {
      const sim = yield* FragmentSimulator.scoped()
      const hash = extractApiHash((yield* get(`${sim.url}/premium/gift`, sim.cookies)).text)!
      const call = (fields: Record<string, string>) =>
        api(sim.url, hash, sim.cookies, fields).pipe(Effect.map((r) => r.json))
      const found = yield* call({ method: "searchPremiumGiftRecipient", query: "evm_user", months: "6" })
      const recipient = (found["found"] as Record<string, string>)["recipient"]!
      const refused = yield* call({ method: "initGiftPremiumRequest", recipient, months: "6", payment_method: "card" })
      assert.deepStrictEqual(refused, { error: "Unsupported payment method." })
      const init = yield* call({ method: "initGiftPremiumRequest", recipient, months: "6", payment_method: "usdt_evm" })
      const account = JSON.stringify({
        address: payer.address,
        publicKey: payer.publicKey,
        chain: "-239",
        walletStateInit: payer.walletStateInit
      })
      const link = yield* call({
        method: "getGiftPremiumLink",
        id: String(init["req_id"]),
        transaction: "1",
        show_sender: "0",
        account,
        device: JSON.stringify({ appName: "Tonkeeper" })
      })
      assert.deepStrictEqual(link, { ok: true, evm: true })
    })
  )
})

describe("Fragment simulator in sandbox mode", () => {
  it.live("delivers only once paymentSeen reports the Ref# payment at the sandbox wallet", () =>
    Effect.gen(function* () {
      const seen = new Set<string>()
      const asked: Array<{ ref: string; amount: bigint; address: string }> = []
      const wallet = "UQCsandboxWalletAddressForTestsOnly000000000000000"
      const { sim, market } = yield* simulated({
        walletAddress: wallet,
        paymentSeen: async (ref, expected) => {
          asked.push({ ref, amount: expected.amount, address: expected.address })
          return seen.has(ref)
        }
      })
      const payment = yield* market.quotePremium({ username: "sandbox_user", months: 12, payer })
      assert.strictEqual(payment.address, wallet)
      // a reported boc is not money: still new
      const before = yield* market.confirm({ kind: "premium", reqId: payment.reqId, ref: payment.ref, boc: signedBoc })
      assert.strictEqual(before._tag === "Pending" && before.mode, "new")
      seen.add(payment.ref)
      const during = yield* market.confirm({ kind: "premium", reqId: payment.reqId, ref: payment.ref })
      const after = yield* market.confirm({ kind: "premium", reqId: payment.reqId, ref: payment.ref })
      assert.deepStrictEqual([during._tag, after._tag], ["Pending", "Delivered"])
      assert.deepStrictEqual(asked[0], { ref: payment.ref, amount: payment.amount, address: wallet })
      assert.strictEqual(sim.control.invoice(payment.reqId)?.status, "done")
    })
  )

  it.live(
    "only the quoted account pays: paymentSeen is asked for its payment, a message of another wallet is refused",
    () =>
      Effect.gen(function* () {
        const froms: Array<string | undefined> = []
        const { sim, market } = yield* simulated({
          paymentSeen: async (_ref, expected) => {
            froms.push(expected.from)
            return true
          }
        })
        const payment = yield* market.quoteStars({ username: "quoted_account", quantity: 50, payer })
        const externalTo = (address: string) =>
          beginCell()
            .store(storeMessage(external({ to: Address.parse(address), body: beginCell().storeUint(1, 32).endCell() })))
            .endCell()
            .toBoc()
            .toString("base64")
        const stranger = yield* market.confirm({
          kind: "stars",
          reqId: payment.reqId,
          ref: payment.ref,
          boc: externalTo(`0:${"ef".repeat(32)}`)
        })
        assert.isTrue(stranger._tag !== "Delivered" && stranger.confirm === "refused")
        assert.isUndefined(sim.control.invoice(payment.reqId)?.boc)
        const own = yield* market.confirm({
          kind: "stars",
          reqId: payment.reqId,
          ref: payment.ref,
          boc: externalTo(payer.address)
        })
        assert.isTrue(own._tag === "Delivered" || own.confirm === "accepted")
        assert.deepStrictEqual(froms.at(-1), payer.address)
      })
  )

  it.live("the default sandbox wallet is a valid address", () =>
    Effect.gen(function* () {
      const { market } = yield* simulated()
      const payment = yield* market.quoteStars({ username: "default_wallet", quantity: 50, payer })
      assert.strictEqual(payment.address, SANDBOX_FRAGMENT_WALLET)
      assert.match(SANDBOX_FRAGMENT_WALLET, /^UQ[A-Za-z0-9_-]{46}$/)
    })
  )
})

describe("FragmentMarketplace.layerWith", () => {
  it.live("buys through the given address and cookies", () =>
    Effect.gen(function* () {
      const sim = yield* FragmentSimulator.scoped()
      const payment = yield* Effect.gen(function* () {
        const market = yield* Marketplace
        return yield* market.quoteStars({ username: "configured", quantity: 50, payer })
      }).pipe(
        Effect.provide(
          FragmentMarketplace.layerWith({ baseUrl: sim.url, cookies: Redacted.make(sim.cookies), timeout: "3 seconds" })
        )
      )
      assert.strictEqual(sim.control.invoice(payment.reqId)?.ref, payment.ref)
    })
  )
})

describe("FragmentSandbox.layer", () => {
  it.live("provides the simulator and a Marketplace wired to it", () =>
    Effect.gen(function* () {
      const market = yield* Marketplace
      const sandbox = yield* FragmentSandbox
      const payment = yield* market.quoteTonTopup({ username: "sandbox_layer", amount: nanotonFromDecimal("2"), payer })
      sandbox.control.markPaid(payment.ref)
      yield* market.confirm({ kind: "ton", reqId: payment.reqId, ref: payment.ref })
      const state = yield* market.confirm({ kind: "ton", reqId: payment.reqId, ref: payment.ref })
      assert.strictEqual(state._tag, "Delivered")
      assert.strictEqual(sandbox.control.invoice(payment.reqId)?.status, "done")
    }).pipe(Effect.provide(FragmentSandbox.layer()))
  )
})
