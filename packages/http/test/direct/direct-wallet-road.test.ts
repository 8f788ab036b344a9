/**
 * The wallet road over HTTP, on the real TON VM and the Fragment simulator: the buyer's wallet (a key
 * pair only the test holds, signing as a TON Connect wallet app does) pays the quoted transaction; the
 * service never sees a phrase. Paid and delivered; expired unpaid; paid after validUntil (refused by
 * the wallet, or not credited by Fragment and said so, also once the quote has expired); the signed
 * message reported twice
 * (and a second one refused); paid but never reported (found on chain); a wallet too poor (the chain
 * skips the payment); a phrase field refused; quotes that survive a restart of the service's memory
 * (they are stored); Fragment credits only the quoted wallet's payment.
 */
import { assert, layer } from "@effect/vitest"
import type { Nanoton } from "@resale/core/ports/Blockchain.ts"
import { Address, Cell } from "@ton/ton"
import { Effect, Exit } from "effect"
import { type Answer, assertFailure, post } from "./support/client.ts"
import { type DirectEnv, DirectTestEnv, makeDirectTestEnv } from "./support/DirectTestServer.ts"
import { makeBuyer, type TonConnectRequest } from "./support/tonconnect-wallet.ts"
import { incoming, newPhrase, orderId, ton } from "./support/wallets.ts"

// Short quotes, so "not paid before validUntil" happens within a test.
const VALID_FOR = 6

/** Asks the order's status until it is final (or `until` says stop); the last answer. */
const statusUntil = (env: DirectEnv, address: string, id: string, seconds: number) =>
  Effect.gen(function* () {
    const deadline = Date.now() + seconds * 1000
    while (true) {
      const res = yield* post(env, "/wallet/status", { address, order_id: id })
      assert.strictEqual(res.status, 200, res.text)
      if (res.body["final"] === true || Date.now() > deadline) return res
      yield* Effect.sleep("300 millis")
    }
  })

const transactionOf = (res: Answer) => res.body["transaction"] as TonConnectRequest

/** Payments that reached Fragment's wallet with this order's Ref#, and their amounts. */
const fragmentPayments = (env: DirectEnv, ref: string) =>
  Effect.map(incoming(env, env.fragment.walletAddress), (txs) =>
    txs
      .filter((tx) => {
        const body = tx.inMessage!.body.beginParse()
        return body.remainingBits >= 32 && body.loadUint(32) === 0 && body.loadStringTail().includes(`Ref#${ref}`)
      })
      .map((tx) => {
        const info = tx.inMessage!.info
        return info.type === "internal" ? { amount: info.value.coins, from: info.src.toRawString() } : undefined
      })
  )

/** A funded buyer's wallet and a quote for it, answered 200 under a new order id. */
const quotedOrder = (
  env: DirectEnv,
  version: "v4r2" | "v5r1",
  funds: Nanoton,
  path: string,
  fields: Record<string, unknown>,
  label: string
) =>
  Effect.gen(function* () {
    const buyer = yield* makeBuyer(env, version, funds)
    const id = orderId(label)
    const quote = yield* post(env, path, { account: buyer.account, ...fields, order_id: id })
    assert.strictEqual(quote.status, 200, quote.text)
    return { buyer, id, quote }
  })

/** The Ref# inside the payload's comment (op 0, snake text). */
const refOf = (transaction: TonConnectRequest) =>
  /Ref#([A-Za-z0-9_-]+)/.exec(
    Cell.fromBase64(transaction.messages[0]!.payload).beginParse().skip(32).loadStringTail()
  )![1]!

layer(makeDirectTestEnv({ fragmentValidFor: VALID_FOR }), { timeout: "180 seconds", excludeTestServices: true })(
  "the wallet road: the buyer's wallet signs, the service follows the chain",
  (it) => {
    it.effect(
      "paid and delivered: the quote is Fragment's transaction for the account; the signed message is reported and the order delivered once",
      () =>
        Effect.gen(function* () {
          const env = yield* DirectTestEnv
          const { buyer, id, quote } = yield* quotedOrder(
            env,
            "v5r1",
            ton(5),
            "/stars/quote",
            { username: "walletbuyer", amount: 50 },
            "w-paid"
          )
          assert.deepStrictEqual(
            [quote.body["order_id"], quote.body["status"], quote.body["stars_amount"]],
            [id, "awaiting_payment", 50]
          )
          const transaction = transactionOf(quote)
          assert.strictEqual(transaction.from, buyer.account.address)
          assert.strictEqual(transaction.messages.length, 1)
          assert.strictEqual(transaction.messages[0]!.amount, "460900000")
          assert.strictEqual(
            Address.parse(transaction.messages[0]!.address).toRawString(),
            Address.parse(env.fragment.walletAddress).toRawString()
          )
          // the same request again answers the same quote, not a second invoice
          const again = yield* post(env, "/stars/quote", {
            account: buyer.account,
            username: "walletbuyer",
            amount: 50,
            order_id: id
          })
          assert.deepStrictEqual(transactionOf(again), transaction)

          const boc = yield* buyer.sign(transaction)
          yield* buyer.broadcast(boc)
          const reported = yield* post(env, "/wallet/report", { address: buyer.account.address, order_id: id, boc })
          assert.strictEqual(reported.status, 200, reported.text)
          assert.strictEqual(reported.body["reported"], true)
          const done = yield* statusUntil(env, buyer.address, id, 20)
          assert.strictEqual(done.body["status"], "delivered", done.text)
          assert.isString(done.body["tx_hash"])
          const ref = refOf(transaction)
          assert.strictEqual(env.fragment.control.invoiceByRef(ref)?.status, "done")
          const paid = yield* fragmentPayments(env, ref)
          assert.deepStrictEqual(paid, [{ amount: 460_900_000n, from: buyer.account.address }])
          // final means final: asked again, the same state
          const later = yield* post(env, "/wallet/status", { address: buyer.address, order_id: id })
          assert.strictEqual(later.body["status"], "delivered")
          // nothing of this road is a phrase: no log line carries one
          assert.isFalse(
            env.logs.some((line) => line.includes(buyer.account.walletStateInit.slice(0, 40)) && line.includes("seed"))
          )
        })
    )

    it.effect("a quote not paid before validUntil is expired, once; the order id may then be quoted anew", () =>
      Effect.gen(function* () {
        const env = yield* DirectTestEnv
        const { buyer, id, quote } = yield* quotedOrder(
          env,
          "v4r2",
          ton(5),
          "/premium/quote",
          { username: "walletprem", duration: 3 },
          "w-expired"
        )
        // another request under the id while the quote may still be paid is refused
        const other = yield* post(env, "/premium/quote", {
          account: buyer.account,
          username: "walletprem",
          duration: 6,
          order_id: id
        })
        assertFailure(other, 409, "PENDING_TRANSACTION")
        const expired = yield* statusUntil(env, buyer.address, id, VALID_FOR + 20)
        assert.strictEqual(expired.body["status"], "expired", expired.text)
        assert.strictEqual(expired.body["tx_hash"], null)
        assert.deepStrictEqual(yield* fragmentPayments(env, refOf(transactionOf(quote))), [])
        const anew = yield* post(env, "/premium/quote", {
          account: buyer.account,
          username: "walletprem",
          duration: 6,
          order_id: id
        })
        assert.strictEqual(anew.status, 200, anew.text)
        assert.strictEqual(anew.body["status"], "awaiting_payment")
        assert.notDeepEqual(transactionOf(anew), transactionOf(quote))
      })
    )

    it.effect(
      "paid after validUntil: the quoted message is refused by the wallet itself; a payment signed later reaches the simulated Fragment, which does not deliver it, and the order says so",
      () =>
        Effect.gen(function* () {
          const env = yield* DirectTestEnv
          const { buyer, id, quote } = yield* quotedOrder(
            env,
            "v5r1",
            ton(5),
            "/stars/quote",
            { username: "latebuyer", amount: 50 },
            "w-late"
          )
          const transaction = transactionOf(quote)
          const onTime = yield* buyer.sign(transaction)
          // a message signed by its own later deadline, as a wallet that ignored validUntil would make
          const late = yield* buyer.sign({ ...transaction, validUntil: transaction.validUntil + 120 })
          yield* Effect.sleep(`${transaction.validUntil * 1000 - Date.now() + 1500} millis`)
          // the TON Connect message carries validUntil as its own deadline: the wallet contract refuses it
          assert.isTrue(Exit.isFailure(yield* Effect.exit(buyer.broadcast(onTime))))
          yield* buyer.broadcast(late)
          const ref = refOf(transaction)
          const paid = yield* fragmentPayments(env, ref)
          assert.deepStrictEqual(paid, [{ amount: 460_900_000n, from: buyer.account.address }])
          const reported = yield* post(env, "/wallet/report", { address: buyer.address, order_id: id, boc: late })
          assert.strictEqual(reported.status, 200, reported.text)
          const done = yield* statusUntil(env, buyer.address, id, 20)
          assert.strictEqual(done.body["status"], "paid_unconfirmed", done.text)
          assert.isString(done.body["tx_hash"])
          assert.match(String(done.body["message"]), /Paid after the quote's deadline \(valid_until \d+, paid at \d+/)
          assert.match(String(done.body["message"]), /request had expired, so no delivery is awaited/)
          // Fragment (the simulator, as its page shows an expired request) credits nothing paid after validUntil
          assert.notStrictEqual(env.fragment.control.invoiceByRef(ref)?.status, "done")
        })
    )

    it.effect(
      "paid after the quote settled expired: the order stays expired and names the late payment; Fragment delivers nothing",
      () =>
        Effect.gen(function* () {
          const env = yield* DirectTestEnv
          const { buyer, id, quote } = yield* quotedOrder(
            env,
            "v4r2",
            ton(5),
            "/stars/quote",
            { username: "afterbuyer", amount: 50 },
            "w-after"
          )
          const transaction = transactionOf(quote)
          const expired = yield* statusUntil(env, buyer.address, id, VALID_FOR + 20)
          assert.strictEqual(expired.body["status"], "expired", expired.text)
          assert.match(String(expired.body["message"]), /nothing left the wallet/)
          yield* buyer.broadcast(yield* buyer.sign({ ...transaction, validUntil: transaction.validUntil + 120 }))
          const named = yield* post(env, "/wallet/status", { address: buyer.address, order_id: id })
          assert.deepStrictEqual([named.body["status"], named.body["final"]], ["expired", true], named.text)
          assert.isString(named.body["tx_hash"])
          assert.match(String(named.body["message"]), /Paid after the quote's deadline/)
          const again = yield* post(env, "/wallet/status", { address: buyer.address, order_id: id })
          assert.deepStrictEqual(again.body, named.body)
          assert.notStrictEqual(env.fragment.control.invoiceByRef(refOf(transaction))?.status, "done")
        })
    )

    it.effect("the signed message reported twice is one report; a second signed message for the order is refused", () =>
      Effect.gen(function* () {
        const env = yield* DirectTestEnv
        const { buyer, id, quote } = yield* quotedOrder(
          env,
          "v5r1",
          ton(5),
          "/stars/quote",
          { username: "twicebuyer", amount: 60 },
          "w-twice"
        )
        const boc = yield* buyer.sign(transactionOf(quote))
        yield* buyer.broadcast(boc)
        const first = yield* post(env, "/wallet/report", { address: buyer.address, order_id: id, boc })
        const second = yield* post(env, "/wallet/report", { address: buyer.address, order_id: id, boc })
        assert.deepStrictEqual([first.status, second.status], [200, 200], second.text)
        // a wallet asked to sign again makes another message (next seqno): it is not forwarded
        const another = yield* buyer.sign(transactionOf(quote))
        assert.notStrictEqual(another, boc)
        const refused = yield* post(env, "/wallet/report", { address: buyer.address, order_id: id, boc: another })
        assertFailure(refused, 409, "ALREADY_SIGNED")
        assert.strictEqual(refused.body["order_id"], id)
        const done = yield* statusUntil(env, buyer.address, id, 20)
        assert.strictEqual(done.body["status"], "delivered", done.text)
        assert.strictEqual((yield* fragmentPayments(env, refOf(transactionOf(quote)))).length, 1)
      })
    )

    it.effect("paid but never reported: the payment is found on chain and the order delivered", () =>
      Effect.gen(function* () {
        const env = yield* DirectTestEnv
        const { buyer, id, quote } = yield* quotedOrder(
          env,
          "v4r2",
          ton(5),
          "/coin/quote",
          { username: "silentbuyer", amount: 1 },
          "w-silent"
        )
        yield* buyer.broadcast(yield* buyer.sign(transactionOf(quote)))
        const done = yield* statusUntil(env, buyer.address, id, 20)
        assert.strictEqual(done.body["status"], "delivered", done.text)
        assert.strictEqual(done.body["reported"], false)
        assert.strictEqual(done.body["amount"], 1)
      })
    )

    it.effect(
      "the watcher settles a paid order nobody reports or asks about; a restarted service takes up stored quotes",
      () =>
        Effect.gen(function* () {
          const env = yield* DirectTestEnv
          const {
            buyer,
            id: watched,
            quote
          } = yield* quotedOrder(
            env,
            "v5r1",
            ton(5),
            "/stars/quote",
            { username: "watchedbuyer", amount: 50 },
            "w-watched"
          )
          // the server "crashes" between quote and report: a new instance over the same database goes on
          const restarted = yield* env.restartedWallets
          const boc = yield* buyer.sign(transactionOf(quote))
          yield* buyer.broadcast(boc)
          const reported = yield* restarted.report({ address: buyer.address, orderId: watched, boc })
          assert.include(["awaiting_payment", "paid", "delivered"], reported.state)
          // nobody asks: the worker's round settles it (listOpen reads the stored quotes)
          const deadline = Date.now() + 20_000
          let final = false
          while (!final && Date.now() < deadline) {
            yield* restarted.settleOpen(100)
            // the stored state, read without following the quote (a status request would follow it itself)
            const rows = yield* env.sql<{
              state: string
            }>`SELECT state FROM wallet_quotes WHERE order_id = ${watched}`.pipe(Effect.orDie)
            final = rows[0]?.state === "delivered"
            if (!final) yield* Effect.sleep("200 millis")
          }
          assert.isTrue(final)
          assert.strictEqual((yield* fragmentPayments(env, refOf(transactionOf(quote)))).length, 1)
        })
    )

    it.effect(
      "a wallet too poor to pay: the chain skips the payment, the reported order fails, nothing reaches Fragment",
      () =>
        Effect.gen(function* () {
          const env = yield* DirectTestEnv
          const { buyer, id, quote } = yield* quotedOrder(
            env,
            "v5r1",
            ton(0.2),
            "/stars/quote",
            { username: "poorbuyer", amount: 50 },
            "w-poor"
          )
          const boc = yield* buyer.sign(transactionOf(quote))
          yield* buyer.broadcast(boc)
          const reported = yield* post(env, "/wallet/report", { address: buyer.address, order_id: id, boc })
          assert.strictEqual(reported.status, 200, reported.text)
          const failed = yield* statusUntil(env, buyer.address, id, VALID_FOR + 20)
          assert.strictEqual(failed.body["status"], "failed", failed.text)
          assert.match(String(failed.body["message"]), /nothing was paid/)
          assert.deepStrictEqual(yield* fragmentPayments(env, refOf(transactionOf(quote))), [])
        })
    )

    it.effect("Fragment credits only the quoted wallet: another wallet paying the same Ref# delivers nothing", () =>
      Effect.gen(function* () {
        const env = yield* DirectTestEnv
        const buyer = yield* makeBuyer(env, "v5r1", ton(5))
        const stranger = yield* makeBuyer(env, "v5r1", ton(5))
        const id = orderId("w-stranger")
        const quote = yield* post(env, "/stars/quote", {
          account: buyer.account,
          username: "quotedbuyer",
          amount: 50,
          order_id: id
        })
        assert.strictEqual(quote.status, 200, quote.text)
        yield* stranger.broadcast(yield* stranger.sign(transactionOf(quote)))
        const ref = refOf(transactionOf(quote))
        assert.strictEqual((yield* fragmentPayments(env, ref)).length, 1)
        yield* Effect.sleep("1 second")
        const status = yield* post(env, "/wallet/status", { address: buyer.address, order_id: id })
        assert.strictEqual(status.body["status"], "awaiting_payment", status.text)
        assert.notStrictEqual(env.fragment.control.invoiceByRef(ref)?.status, "done")
      })
    )

    it.effect("refusals: a phrase field, a foreign StateInit, an unknown order, GET; all coded", () =>
      Effect.gen(function* () {
        const env = yield* DirectTestEnv
        const buyer = yield* makeBuyer(env, "v5r1", ton(0))
        const other = yield* makeBuyer(env, "v4r2", ton(0))
        const phrase = yield* newPhrase("ton24")
        for (const field of ["seed", "mnemonic"]) {
          const res = yield* post(env, "/stars/quote", {
            account: buyer.account,
            username: "refused",
            amount: 50,
            [field]: phrase
          })
          assertFailure(res, 400, "VALIDATION_ERROR", phrase)
          assert.match(String(res.body["message"]), new RegExp(`${field} is not accepted`))
        }
        const foreign = yield* post(env, "/stars/quote", {
          account: { ...buyer.account, walletStateInit: other.account.walletStateInit },
          username: "refused",
          amount: 50
        })
        assertFailure(foreign, 400, "VALIDATION_ERROR")
        const low = yield* post(env, "/stars/quote", { account: buyer.account, username: "refused", amount: 10 })
        assertFailure(low, 400, "INVALID_AMOUNT_MIN")
        // a signed message of another wallet (or no message at all) is not this order's
        const id = orderId("w-foreign-boc")
        const quote = yield* post(env, "/stars/quote", {
          account: buyer.account,
          username: "refused",
          amount: 50,
          order_id: id
        })
        assert.strictEqual(quote.status, 200, quote.text)
        for (const boc of [yield* other.sign(transactionOf(quote)), "te6cckEBAQEAAgAAAEysuc0="]) {
          const res = yield* post(env, "/wallet/report", { address: buyer.address, order_id: id, boc })
          assertFailure(res, 400, "VALIDATION_ERROR")
        }
        const unknown = yield* post(env, "/wallet/status", { address: buyer.address, order_id: "never-quoted" })
        assertFailure(unknown, 404, "NOT_FOUND")
        const asGet = yield* Effect.map(
          Effect.promise(() => fetch(`${env.url}/stars/quote`)),
          (r) => r.status
        )
        assert.strictEqual(asGet, 405)
        assert.isFalse(env.logs.some((line) => line.includes(phrase.split(" ").slice(0, 4).join(" "))))
      })
    )
  }
)
