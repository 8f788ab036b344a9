/**
 * Funds and amounts, on the real TON VM over HTTP: a valid phrase whose wallets hold nothing answers
 * INSUFFICIENT_FUNDS naming the address to fund (a phrase that is no mnemonic stays WALLET_VM_ERROR), on
 * every endpoint and alias; `cost` and `fee` carry every nanoton, fresh and replayed from the database.
 */
import { assert, layer } from "@effect/vitest"
import { formatTon } from "@resale/core/money/Nanoton.ts"
import { Effect, Option } from "effect"
import { assertFailure, type Answer, post } from "./support/client.ts"
import { DirectTestEnv, makeDirectTestEnv } from "./support/DirectTestServer.ts"
import {
  addressOf,
  balanceOf,
  freshAddress,
  fundedWallet,
  incoming,
  invalidPhrase,
  latestRecord,
  nano,
  newPhrase,
  orderId,
  type PhraseKind,
  ton
} from "./support/wallets.ts"

/** 0.466420801 TON: a price with all nine decimals. */
const ODD_PRICE = 466_420_801n

/** Every paying path (aliases included) with valid fields; premium needs a 24-word phrase. */
const requests = (words: number): ReadonlyArray<readonly [string, Record<string, unknown>]> => [
  ["/coin/buy", { username: "fundsbuyer", amount: 1 }],
  ["/ton/buy", { username: "fundsbuyer", amount: 1 }],
  ["/coin/transfer", { to: freshAddress(), amount: 1 }],
  ["/ton/transfer", { to: freshAddress(), amount: "0.5" }],
  ["/stars/buy", { username: "fundsbuyer", amount: 50 }],
  ...(words === 24 ? [["/premium/buy", { username: "fundsbuyer", duration: 3 }] as const] : [])
]

/** The answer's own JSON text has `field` as exactly this decimal (a parsed JS number could hide a lost digit). */
const assertExact = (res: Answer, field: "cost" | "fee", nanoton: bigint) => {
  assert.include(res.text, `"${field}":${formatTon(nanoton)}`, res.text)
  assert.strictEqual(nano(res.body[field]), nanoton)
}

layer(makeDirectTestEnv({ fragmentPrices: { premiumNanoton: { 3: ODD_PRICE }, topupFeeNanoton: ODD_PRICE } }), {
  timeout: "120 seconds",
  excludeTestServices: true
})("direct funds and exact amounts", (it) => {
  for (const kind of ["ton24", "bip12"] as ReadonlyArray<PhraseKind>) {
    it.effect(
      `INSUFFICIENT_FUNDS for a valid ${kind} phrase whose wallets are empty, naming the address /balance shows`,
      () =>
        Effect.gen(function* () {
          const env = yield* DirectTestEnv
          const phrase = yield* newPhrase(kind)
          const v5 = yield* addressOf(phrase, "v5r1")
          const v4 = yield* addressOf(phrase, "v4r2")
          const shown = yield* post(env, "/balance", { seed: phrase })
          assert.deepStrictEqual([shown.body["address"], shown.body["state"]], [v5, "uninit"])
          const invoices = env.fragment.control.invoices().length
          for (const [path, fields] of requests(phrase.split(" ").length)) {
            const id = orderId("empty")
            const res = yield* post(env, path, { ...fields, seed: phrase, order_id: id })
            assertFailure(res, 400, "INSUFFICIENT_FUNDS", phrase)
            const message = String(res.body["message"])
            assert.include(message, v5, path)
            assert.include(message, v4, `${path}: either version's wallet may be funded`)
            assert.isTrue(Option.isNone(yield* latestRecord(env, id)), `${path}: no order was claimed`)
          }
          // Only the version asked for can pay, so only its address is named.
          const asked = yield* post(env, "/coin/transfer", {
            to: freshAddress(),
            amount: 1,
            seed: phrase,
            wallet_version: "v4r2"
          })
          assertFailure(asked, 400, "INSUFFICIENT_FUNDS", phrase)
          assert.include(String(asked.body["message"]), v4)
          assert.notInclude(String(asked.body["message"]), v5)
          assert.strictEqual(env.fragment.control.invoices().length, invoices, "the marketplace was not asked")
          assert.isFalse(
            env.logs.some((line) => line.includes(phrase)),
            "the phrase is in no log line"
          )
        }),
      30_000
    )
  }

  it.effect(
    "WALLET_VM_ERROR for words that are no mnemonic, on every endpoint and alias; fields are checked before either",
    () =>
      Effect.gen(function* () {
        const env = yield* DirectTestEnv
        for (const words of [24, 12] as const) {
          const phrase = yield* invalidPhrase(words)
          for (const [path, fields] of requests(words)) {
            assertFailure(yield* post(env, path, { ...fields, seed: phrase }), 400, "WALLET_VM_ERROR", phrase)
          }
        }
        // DESIGN §8's order: fields, then the phrase, then funds.
        const empty = yield* newPhrase("ton24")
        assertFailure(
          yield* post(env, "/stars/buy", { username: "fundsbuyer", amount: 49, seed: empty }),
          400,
          "INVALID_AMOUNT_MIN",
          empty
        )
        assertFailure(
          yield* post(env, "/coin/transfer", { to: "nowhere", amount: 1, seed: empty }),
          400,
          "VALIDATION_ERROR",
          empty
        )
      }),
    30_000
  )

  it.effect(
    "/premium/buy and /coin/buy at a price of 0.466420801 TON: cost exact to the nanoton, fresh and replayed",
    () =>
      Effect.gen(function* () {
        const env = yield* DirectTestEnv
        const { address, phrase } = yield* fundedWallet(env, "ton24", "v5r1", ton(5))
        let spent = 0n
        for (const [path, fields, price] of [
          ["/premium/buy", { username: "oddprice", duration: 3 }, ODD_PRICE],
          ["/coin/buy", { username: "oddprice", amount: 1 }, ton(1) + ODD_PRICE]
        ] as const) {
          const id = orderId("odd")
          const res = yield* post(env, path, { ...fields, seed: phrase, order_id: id })
          assert.strictEqual(res.status, 200, res.text)
          const record = Option.getOrThrow(yield* latestRecord(env, id))
          assert.strictEqual(record.payAmount, price, "Fragment was paid its price to the nanoton")
          const cost = record.payAmount! + record.fee!
          assertExact(res, "cost", cost)
          spent += cost
          assert.strictEqual(ton(5) - (yield* balanceOf(env, address)), spent, "the balance dropped by cost")
          // The same request again: the stored body, read back from the database, nothing paid.
          const again = yield* post(env, path, { ...fields, seed: phrase, order_id: id })
          assert.strictEqual(again.text, res.text)
          assertExact(again, "cost", cost)
          assert.strictEqual(ton(5) - (yield* balanceOf(env, address)), spent)
        }
      }),
    30_000
  )

  it.effect(
    "/coin/transfer of 0.466420801 TON: the recipient gets it exactly, fee exact, fresh and replayed",
    () =>
      Effect.gen(function* () {
        const env = yield* DirectTestEnv
        const { address, phrase } = yield* fundedWallet(env, "bip12", "v4r2", ton(2))
        for (const amount of [0.466420801, "0.466420801"]) {
          const to = freshAddress()
          const id = orderId("oddtr")
          const before = yield* balanceOf(env, address)
          const res = yield* post(env, "/coin/transfer", { to, amount, seed: phrase, order_id: id })
          assert.strictEqual(res.status, 200, res.text)
          const record = Option.getOrThrow(yield* latestRecord(env, id))
          assert.strictEqual(record.payAmount, ODD_PRICE)
          assertExact(res, "fee", record.fee!)
          assert.strictEqual(before - (yield* balanceOf(env, address)), ODD_PRICE + record.fee!)
          const received = (yield* incoming(env, to))[0]?.inMessage?.info
          assert(received?.type === "internal" && received.value.coins === ODD_PRICE)
          const again = yield* post(env, "/coin/transfer", { to, amount, seed: phrase, order_id: id })
          assert.strictEqual(again.text, res.text)
          assertExact(again, "fee", record.fee!)
          assert.strictEqual((yield* incoming(env, to)).length, 1, "paid once")
        }
      }),
    30_000
  )
})
