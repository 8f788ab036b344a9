/**
 * Every endpoint succeeds from V4R2 and V5R1 wallets, with 24-word TON and 12-word BIP39 phrases (premium:
 * 24 words only), on the real TON VM and the Fragment simulator, over HTTP. Balances on chain move by exactly
 * what the answer reports; the marketplace is paid exactly the invoice and delivers.
 */
import { assert, layer } from "@effect/vitest"
import type { WalletVersion } from "@resale/core/ports/Blockchain.ts"
import { Address } from "@ton/ton"
import { Effect, Option } from "effect"
import { call, get, post } from "./support/client.ts"
import { DirectTestEnv, makeDirectTestEnv } from "./support/DirectTestServer.ts"
import {
  balanceOf,
  freshAddress,
  fundedWallet,
  incoming,
  nano,
  orderId,
  type PhraseKind,
  ton,
  latestRecord
} from "./support/wallets.ts"

const wallets: ReadonlyArray<readonly [PhraseKind, WalletVersion]> = [
  ["ton24", "v4r2"],
  ["ton24", "v5r1"],
  ["bip12", "v4r2"],
  ["bip12", "v5r1"]
]

layer(makeDirectTestEnv(), { timeout: "120 seconds", excludeTestServices: true })("direct endpoints succeed", (it) => {
  for (const [kind, version] of wallets) {
    it.effect(
      `/coin/transfer from ${version}, ${kind}: recipient gets the amount, the wallet pays amount + fee`,
      () =>
        Effect.gen(function* () {
          const env = yield* DirectTestEnv
          const { address, phrase } = yield* fundedWallet(env, kind, version, ton(5))
          const to = freshAddress(false)
          const id = orderId("tr")
          const res = yield* post(env, "/coin/transfer", {
            to,
            amount: 1.25,
            seed: phrase,
            comment: "invoice 42",
            order_id: id
          })
          assert.strictEqual(res.status, 200, res.text)
          assert.deepStrictEqual(Object.keys(res.body).toSorted(), ["fee", "message", "ok", "order_id", "tx_hash"])
          assert.deepStrictEqual([res.body["ok"], res.body["order_id"]], [true, id])
          const fee = nano(res.body["fee"])
          assert.isTrue(fee > 0n)
          assert.strictEqual(ton(5) - (yield* balanceOf(env, address)), ton(1.25) + fee)
          const received = yield* incoming(env, to)
          assert.strictEqual(received.length, 1)
          const msg = received[0]!.inMessage!
          assert(msg.info.type === "internal" && msg.info.value.coins === ton(1.25))
          const body = msg.body.beginParse()
          assert.deepStrictEqual([body.loadUint(32), body.loadStringTail()], [0, "invoice 42"])
          // the reported tx hash is the sender's transaction
          const sent = (yield* Effect.promise(() => env.emulator.getTransactions(Address.parse(address)))).find(
            (tx) => tx.hash().toString("hex") === res.body["tx_hash"]
          )
          assert.isDefined(sent)
        }),
      30_000
    )

    if (kind === "ton24") {
      it.effect(
        `/premium/buy from ${version}, 24 words: Fragment is paid the invoice and delivers; cost = balance drop`,
        () =>
          Effect.gen(function* () {
            const env = yield* DirectTestEnv
            const { address, phrase } = yield* fundedWallet(env, kind, version, ton(50))
            const res = yield* post(env, "/premium/buy", { username: `prem${version}user`, duration: 6, seed: phrase })
            assert.strictEqual(res.status, 200, res.text)
            assert.deepStrictEqual(Object.keys(res.body).toSorted(), [
              "cost",
              "duration",
              "message",
              "ok",
              "order_id",
              "username"
            ])
            assert.deepStrictEqual([res.body["username"], res.body["duration"]], [`prem${version}user`, 6])
            const cost = nano(res.body["cost"])
            assert.strictEqual(ton(50) - (yield* balanceOf(env, address)), cost)
            const record = Option.getOrThrow(yield* latestRecord(env, String(res.body["order_id"])))
            const invoice = env.fragment.control.invoiceByRef(record.ref!)
            assert.strictEqual(invoice?.status, "done")
            // Fragment's wallet received exactly the invoice, once, with the payment's Ref#
            const payments = (yield* incoming(env, env.fragment.walletAddress)).filter((tx) =>
              tx.inMessage!.body.beginParse().skip(32).loadStringTail().includes(`Ref#${record.ref}`)
            )
            assert.strictEqual(payments.length, 1)
            const info = payments[0]!.inMessage!.info
            assert(info.type === "internal" && info.value.coins === invoice!.amount)
            assert.strictEqual(cost, invoice!.amount + record.fee!)
          }),
        30_000
      )
    }

    it.effect(
      `/stars/buy from ${version}, ${kind}: paid to Fragment with its payload, delivered`,
      () =>
        Effect.gen(function* () {
          const env = yield* DirectTestEnv
          const { address, phrase } = yield* fundedWallet(env, kind, version, ton(20))
          const res = yield* post(env, "/stars/buy", { username: "starbuyer", amount: 75, seed: phrase })
          assert.strictEqual(res.status, 200, res.text)
          assert.deepStrictEqual(Object.keys(res.body).toSorted(), [
            "cost",
            "message",
            "ok",
            "order_id",
            "stars_amount",
            "username"
          ])
          assert.deepStrictEqual([res.body["stars_amount"], res.body["username"]], [75, "starbuyer"])
          assert.strictEqual(ton(20) - (yield* balanceOf(env, address)), nano(res.body["cost"]))
          const record = Option.getOrThrow(yield* latestRecord(env, String(res.body["order_id"])))
          assert.deepStrictEqual(
            [record.state, record.kind, record.units, record.walletVersion],
            ["done", "stars", 75, version]
          )
          const paid = (yield* incoming(env, env.fragment.walletAddress)).find((tx) =>
            tx.inMessage!.body.beginParse().skip(32).loadStringTail().includes(`Ref#${record.ref}`)
          )
          assert.isDefined(paid, "the payment carries Fragment's payload (comment with Ref#)")
          assert.strictEqual(env.fragment.control.invoiceByRef(record.ref!)?.status, "done")
        }),
      30_000
    )

    it.effect(
      `/coin/buy from ${version}, ${kind}: a Telegram account is topped up with whole TON`,
      () =>
        Effect.gen(function* () {
          const env = yield* DirectTestEnv
          const { address, phrase } = yield* fundedWallet(env, kind, version, ton(10))
          const res = yield* post(env, "/coin/buy", {
            username: "topupuser",
            amount: 2,
            seed: phrase,
            order_id: orderId("cb")
          })
          assert.strictEqual(res.status, 200, res.text)
          assert.deepStrictEqual(Object.keys(res.body).toSorted(), [
            "amount",
            "cost",
            "message",
            "ok",
            "order_id",
            "username"
          ])
          assert.deepStrictEqual([res.body["amount"], res.body["username"]], [2, "topupuser"])
          const cost = nano(res.body["cost"])
          assert.isTrue(cost > ton(2), "the top-up costs the amount plus Fragment's price and the network fee")
          assert.strictEqual(ton(10) - (yield* balanceOf(env, address)), cost)
        }),
      30_000
    )
  }

  it.effect(
    "GET with a JSON body works like POST, on the aliases /ton/transfer and /ton/buy too",
    () =>
      Effect.gen(function* () {
        const env = yield* DirectTestEnv
        const { phrase } = yield* fundedWallet(env, "bip12", "v5r1", ton(10))
        const to = freshAddress(true)
        const transfer = yield* get(env, "/ton/transfer", { to, amount: "0.5", seed: phrase })
        assert.strictEqual(transfer.status, 200, transfer.text)
        assert.match(
          String(transfer.body["order_id"]),
          /^d[0-9a-z]+/,
          "the service makes an order id when none is given"
        )
        const buy = yield* get(env, "/ton/buy", { username: "aliasuser", amount: 1, seed: phrase })
        assert.strictEqual(buy.status, 200, buy.text)
        const stars = yield* get(env, "/stars/buy", { username: "aliasuser", amount: "50", seed: phrase })
        assert.strictEqual(stars.status, 200, stars.text)
        assert.strictEqual(stars.body["stars_amount"], 50)
      }),
    30_000
  )

  it.effect(
    "/balance answers the funded wallet's address, version and balance; /status answers without a body",
    () =>
      Effect.gen(function* () {
        const env = yield* DirectTestEnv
        const { address, phrase } = yield* fundedWallet(env, "ton24", "v5r1", ton(3))
        const res = yield* post(env, "/balance", { seed: phrase })
        assert.strictEqual(res.status, 200, res.text)
        assert.deepStrictEqual(
          [res.body["address"], res.body["version"], res.body["status"], res.body["balance"]],
          [address, "v5r1", "uninit", 3]
        )
        const status = yield* get(env, "/status")
        assert.deepStrictEqual(
          [status.status, status.body["ok"], status.body["network"], status.body["sandbox"]],
          [200, true, "sandbox", true]
        )
        const wrongMethod = yield* call(env, "PUT", "/status")
        assert.notStrictEqual(wrongMethod.status, 200)
      }),
    30_000
  )
})
