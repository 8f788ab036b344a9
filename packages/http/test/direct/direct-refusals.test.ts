/**
 * The refusals of spec §7, provoked for real over HTTP, in DESIGN §8's order (fields, then the phrase and
 * wallet, then funds, then the marketplace): each answers its code and status, pays nothing, and never
 * repeats the phrase.
 */
import { assert, layer } from "@effect/vitest"
import { createShardAccount } from "@ton/sandbox"
import { Address, beginCell } from "@ton/ton"
import { Effect, Option } from "effect"
import { assertFailure, call, post } from "./support/client.ts"
import { DirectTestEnv, makeDirectTestEnv } from "./support/DirectTestServer.ts"
import {
  addressOf,
  balanceOf,
  freshAddress,
  fundedWallet,
  incoming,
  invalidPhrase,
  newPhrase,
  orderId,
  ton,
  latestRecord
} from "./support/wallets.ts"

layer(makeDirectTestEnv(), { timeout: "120 seconds", excludeTestServices: true })("direct refusals", (it) => {
  it.effect(
    "VALIDATION_ERROR 400 for malformed or wrong fields on every endpoint, before the phrase is looked at",
    () =>
      Effect.gen(function* () {
        const env = yield* DirectTestEnv
        const seed = yield* newPhrase("ton24")
        const seed12 = yield* newPhrase("bip12")
        const wrongPhrase = yield* invalidPhrase(24)
        const cases: ReadonlyArray<readonly [string, unknown]> = [
          ["/stars/buy", `{"username":"someone","amount":50,"seed":"${seed}"`], // malformed JSON
          ["/stars/buy", "[1,2,3]"],
          ["/stars/buy", { amount: 50, seed }], // username missing
          ["/stars/buy", { username: "@@someone", amount: 50, seed }], // only one leading @ is taken off
          ["/stars/buy", { username: "someone", amount: 50.5, seed }],
          ["/stars/buy", { username: "someone", amount: 50, seed: seed.split(" ").slice(0, 13).join(" ") }],
          ["/stars/buy", { username: "someone", amount: 50 }], // seed missing
          ["/premium/buy", { username: "someone", duration: 5, seed }],
          ["/premium/buy", { username: "someone", duration: 3, seed: seed12 }], // premium wants 24 words
          ["/coin/transfer", { to: "not-an-address", amount: 1, seed }],
          ["/coin/transfer", { to: freshAddress(), amount: 0, seed }],
          ["/coin/transfer", { to: freshAddress(), amount: "0.0000000001", seed }],
          ["/coin/transfer", { to: freshAddress(), amount: 1, seed, comment: `my words: ${seed}` }],
          ["/coin/transfer", { to: freshAddress(), amount: 1, seed, order_id: "has space" }],
          ["/coin/buy", { username: "someone", amount: 1.5, seed }],
          ["/coin/buy", { username: "someone", amount: 2, seed, wallet_version: "v3r2" }],
          ["/balance", { seed: 12345 }]
        ]
        for (const [path, body] of cases) {
          const res = yield* post(env, path, body)
          assertFailure(res, 400, "VALIDATION_ERROR", seed)
          assert.isFalse(res.text.includes(seed12), `${path}: the 12-word phrase is not echoed`)
        }
        // The wrong fields win over the wrong phrase: fields are checked first.
        assertFailure(
          yield* post(env, "/stars/buy", { username: "@x", amount: 50, seed: wrongPhrase }),
          400,
          "VALIDATION_ERROR"
        )
        const inUrl = yield* call(env, "GET", `/balance?seed=${encodeURIComponent(seed)}`)
        assertFailure(inUrl, 400, "VALIDATION_ERROR", seed)
        assert.match(String(inUrl.body["message"]), /send seed in the JSON body/)
        assert.isEmpty(
          env.fragment.control.invoices().filter((i) => i.username === "someone"),
          "the marketplace was never asked"
        )
      }),
    30_000
  )

  it.effect(
    "INVALID_AMOUNT_MIN / INVALID_AMOUNT_MAX for stars below 50 and above 1,000,000",
    () =>
      Effect.gen(function* () {
        const env = yield* DirectTestEnv
        const seed = yield* newPhrase("ton24")
        assertFailure(
          yield* post(env, "/stars/buy", { username: "someone", amount: 49, seed }),
          400,
          "INVALID_AMOUNT_MIN",
          seed
        )
        assertFailure(
          yield* post(env, "/stars/buy", { username: "someone", amount: 1_000_001, seed }),
          400,
          "INVALID_AMOUNT_MAX",
          seed
        )
        assertFailure(
          yield* post(env, "/stars/buy", { username: "someone", amount: "10", seed }),
          400,
          "INVALID_AMOUNT_MIN",
          seed
        )
      }),
    30_000
  )

  it.effect(
    "WALLET_VM_ERROR: a wrong phrase, a funded wallet of the other version (a valid phrase never funded: INSUFFICIENT_FUNDS)",
    () =>
      Effect.gen(function* () {
        const env = yield* DirectTestEnv
        const wrongPhrase = yield* invalidPhrase(24)
        for (const path of ["/coin/transfer", "/stars/buy", "/premium/buy", "/coin/buy", "/balance"]) {
          const res = yield* post(env, path, {
            to: freshAddress(),
            username: "someone",
            amount: 50,
            duration: 3,
            seed: wrongPhrase
          })
          assertFailure(res, 400, "WALLET_VM_ERROR", wrongPhrase)
        }
        // Spec §7: a valid phrase is not wrong for having no TON yet; the answer says where to send some.
        const unused = yield* newPhrase("ton24")
        const empty = yield* post(env, "/coin/transfer", { to: freshAddress(), amount: 1, seed: unused })
        assertFailure(empty, 400, "INSUFFICIENT_FUNDS", unused)
        assert.include(String(empty.body["message"]), yield* addressOf(unused, "v5r1"))

        const { address, phrase } = yield* fundedWallet(env, "bip12", "v4r2", ton(3))
        const res = yield* post(env, "/stars/buy", {
          username: "someone",
          amount: 50,
          seed: phrase,
          wallet_version: "v5r1"
        })
        assertFailure(res, 400, "WALLET_VM_ERROR", phrase)
        assert.match(String(res.body["message"]), /v4r2/)
        assert.strictEqual(yield* balanceOf(env, address), ton(3), "nothing left the wallet")
        // The version it does have works.
        const ok = yield* post(env, "/coin/transfer", {
          to: freshAddress(),
          amount: 1,
          seed: phrase,
          wallet_version: "v4r2"
        })
        assert.strictEqual(ok.status, 200, ok.text)
      }),
    30_000
  )

  it.effect(
    "WALLET_VM_ERROR for a frozen wallet: it cannot pay, whatever its balance",
    () =>
      Effect.gen(function* () {
        const env = yield* DirectTestEnv
        const { address, phrase } = yield* fundedWallet(env, "ton24", "v4r2", ton(1))
        const shard = createShardAccount({
          address: Address.parse(address),
          code: beginCell().endCell(),
          data: beginCell().endCell(),
          balance: ton(2)
        })
        const frozen = {
          ...shard,
          account: {
            ...shard.account!,
            storage: { ...shard.account!.storage, state: { type: "frozen" as const, stateHash: 1n } }
          }
        }
        yield* Effect.promise(() => env.emulator.setShardAccount(Address.parse(address), frozen))
        const res = yield* post(env, "/coin/transfer", { to: freshAddress(), amount: 1, seed: phrase })
        assertFailure(res, 400, "WALLET_VM_ERROR", phrase)
        assert.match(String(res.body["message"]), /frozen/)
        assert.strictEqual(yield* balanceOf(env, address), ton(2))
      }),
    30_000
  )

  it.effect(
    "an uninitialised but funded wallet deploys with its first payment; a wallet of the other kind stays untouched",
    () =>
      Effect.gen(function* () {
        const env = yield* DirectTestEnv
        const { address, phrase } = yield* fundedWallet(env, "ton24", "v5r1", ton(4))
        const v4 = yield* addressOf(phrase, "v4r2")
        const before = yield* post(env, "/balance", { seed: phrase })
        assert.deepStrictEqual([before.body["status"], before.body["address"]], ["uninit", address])
        const res = yield* post(env, "/coin/transfer", { to: freshAddress(), amount: 1, seed: phrase })
        assert.strictEqual(res.status, 200, res.text)
        const after = yield* post(env, "/balance", { seed: phrase })
        assert.strictEqual(after.body["status"], "active")
        assert.strictEqual(yield* balanceOf(env, v4), 0n)
      }),
    30_000
  )

  it.effect(
    "INSUFFICIENT_FUNDS: checked before the marketplace, again at its price, and at signing; nothing is paid",
    () =>
      Effect.gen(function* () {
        const env = yield* DirectTestEnv
        const poor = yield* fundedWallet(env, "ton24", "v4r2", ton(0.005))
        const invoices = env.fragment.control.invoices().length
        assertFailure(
          yield* post(env, "/stars/buy", { username: "poorbuyer", amount: 50, seed: poor.phrase }),
          400,
          "INSUFFICIENT_FUNDS",
          poor.phrase
        )
        assert.strictEqual(env.fragment.control.invoices().length, invoices, "the marketplace was not asked")

        // Enough for the fee reserve, not for Fragment's price (50 stars = 0.4609 TON): the invoice is cancelled.
        const some = yield* fundedWallet(env, "bip12", "v5r1", ton(0.2))
        const res = yield* post(env, "/stars/buy", { username: "poorbuyer", amount: 50, seed: some.phrase })
        assertFailure(res, 400, "INSUFFICIENT_FUNDS", some.phrase)
        const record = Option.getOrThrow(yield* latestRecord(env, String(res.body["order_id"])))
        assert.deepStrictEqual([record.state, record.txHash], ["failed", null])
        assert.strictEqual(env.fragment.control.invoice(record.marketplaceReqId!)?.status, "cancelled")
        assert.strictEqual(yield* balanceOf(env, some.address), ton(0.2))

        const transfer = yield* post(env, "/coin/transfer", { to: freshAddress(), amount: 1, seed: some.phrase })
        assertFailure(transfer, 400, "INSUFFICIENT_FUNDS", some.phrase)
        assertFailure(
          yield* post(env, "/coin/buy", { username: "poorbuyer", amount: 1, seed: some.phrase }),
          400,
          "INSUFFICIENT_FUNDS"
        )
        assertFailure(
          yield* post(env, "/premium/buy", { username: "poorbuyer", duration: 3, seed: poor.phrase }),
          400,
          "INSUFFICIENT_FUNDS"
        )
        assert.strictEqual(yield* balanceOf(env, some.address), ton(0.2))
      }),
    30_000
  )

  it.effect(
    "a failed order id (nothing paid) runs again once the wallet is funded",
    () =>
      Effect.gen(function* () {
        const env = yield* DirectTestEnv
        const { address, phrase } = yield* fundedWallet(env, "ton24", "v4r2", ton(0.5))
        const id = orderId("refund")
        const to = freshAddress()
        assertFailure(
          yield* post(env, "/coin/transfer", { to, amount: 1, seed: phrase, order_id: id }),
          400,
          "INSUFFICIENT_FUNDS"
        )
        yield* env.sandbox.fund(address, ton(2))
        const res = yield* post(env, "/coin/transfer", { to, amount: 1, seed: phrase, order_id: id })
        assert.strictEqual(res.status, 200, res.text)
        const record = Option.getOrThrow(yield* latestRecord(env, id))
        assert.deepStrictEqual([record.state, record.attempts], ["done", 2])
        assert.strictEqual((yield* incoming(env, to)).length, 1)
      }),
    30_000
  )

  it.effect(
    "MARKETPLACE_API_ERROR (premium already subscribed, coin/buy unknown user) and MARKETPLACE_ERROR (stars)",
    () =>
      Effect.gen(function* () {
        const env = yield* DirectTestEnv
        const { address, phrase } = yield* fundedWallet(env, "ton24", "v5r1", ton(20))
        env.fragment.control.subscribed("alreadyprem")
        const premium = yield* post(env, "/premium/buy", { username: "alreadyprem", duration: 3, seed: phrase })
        assertFailure(premium, 400, "MARKETPLACE_API_ERROR", phrase)
        assert.match(String(premium.body["message"]), /already subscribed/i)
        env.fragment.control.unknownUser("nobodyhere")
        assertFailure(
          yield* post(env, "/coin/buy", { username: "nobodyhere", amount: 1, seed: phrase }),
          400,
          "MARKETPLACE_API_ERROR"
        )
        env.fragment.control.cannotGift("nostarshere")
        assertFailure(
          yield* post(env, "/stars/buy", { username: "nostarshere", amount: 50, seed: phrase }),
          400,
          "MARKETPLACE_ERROR"
        )
        assert.strictEqual(yield* balanceOf(env, address), ton(20), "nothing was paid")
        const record = Option.getOrThrow(yield* latestRecord(env, String(premium.body["order_id"])))
        assert.deepStrictEqual([record.state, record.errorReason], ["failed", "MarketplaceRejected"])
        env.fragment.control.reset()
      }),
    30_000
  )

  it.effect(
    "MARKETPLACE_TIMEOUT 503 when Fragment does not answer before payment: nothing paid, the order may run again",
    () =>
      Effect.gen(function* () {
        const env = yield* DirectTestEnv
        const { address, phrase } = yield* fundedWallet(env, "bip12", "v4r2", ton(5))
        const id = orderId("slow")
        env.fragment.control.inject({ method: "initBuyStarsRequest", delayMs: 2_500 })
        const res = yield* post(env, "/stars/buy", { username: "slowfragment", amount: 60, seed: phrase, order_id: id })
        assertFailure(res, 503, "MARKETPLACE_TIMEOUT", phrase)
        assert.strictEqual(yield* balanceOf(env, address), ton(5))
        assert.strictEqual(Option.getOrThrow(yield* latestRecord(env, id)).state, "failed")
        yield* Effect.sleep("2 seconds") // let the delayed answer drain
        const again = yield* post(env, "/stars/buy", {
          username: "slowfragment",
          amount: 60,
          seed: phrase,
          order_id: id
        })
        assert.strictEqual(again.status, 200, again.text)
      }),
    30_000
  )
})
