/**
 * A marketplace outage before payment (Fragment answers HTTP 5xx to the quote) answers the direct
 * caller with spec §7's marketplace codes, unchanged, pays nothing, and keeps Fragment's own reason
 * (`Unavailable`) in the use case's error, where a retrying caller (the worker) reads it.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import { assertFailure, post } from "./support/client.ts"
import { DirectTestEnv, makeDirectTestEnv } from "./support/DirectTestServer.ts"
import { balanceOf, fundedWallet, orderId, ton, latestRecord } from "./support/wallets.ts"

layer(makeDirectTestEnv(), { timeout: "120 seconds", excludeTestServices: true })(
  "direct: marketplace reasons",
  (it) => {
    it.effect(
      "Fragment 5xx during the quote: MARKETPLACE_ERROR (stars) / MARKETPLACE_API_ERROR (premium, coin/buy), nothing paid",
      () =>
        Effect.gen(function* () {
          const env = yield* DirectTestEnv
          const { address, phrase } = yield* fundedWallet(env, "ton24", "v5r1", ton(20))
          const cases = [
            ["/stars/buy", "initBuyStarsRequest", { username: "outage_fan", amount: 50 }, "MARKETPLACE_ERROR"],
            [
              "/premium/buy",
              "initGiftPremiumRequest",
              { username: "outage_fan", duration: 3 },
              "MARKETPLACE_API_ERROR"
            ],
            ["/coin/buy", "initAdsTopupRequest", { username: "outage_fan", amount: 1 }, "MARKETPLACE_API_ERROR"]
          ] as const
          for (const [path, method, body, code] of cases) {
            const id = orderId("outage")
            env.fragment.control.inject({ method, status: 502 })
            const res = yield* post(env, path, { ...body, seed: phrase, order_id: id })
            assertFailure(res, 400, code, phrase)
            assert.match(String(res.body["message"]), /HTTP 502/, path)
            const record = Option.getOrThrow(yield* latestRecord(env, id))
            assert.deepStrictEqual([record.state, record.errorReason], ["failed", "MarketplaceRejected"], path)
          }
          assert.strictEqual(yield* balanceOf(env, address), ton(20), "nothing was paid")
        }),
      60_000
    )

    it.effect(
      "the use case's error keeps the marketplace's reason: Unavailable for an outage, Timeout for no answer, Rejected for a refusal",
      () =>
        Effect.gen(function* () {
          const env = yield* DirectTestEnv
          const { phrase } = yield* fundedWallet(env, "ton24", "v4r2", ton(20))
          const seed = Redacted.make(phrase)
          const buy = (username: string) =>
            Effect.flip(
              env.service.buyStars({
                seed,
                orderId: orderId("reason"),
                walletVersion: undefined,
                username,
                quantity: 50
              })
            )

          env.fragment.control.inject({ method: "initBuyStarsRequest", status: 503 })
          const outage = yield* buy("outage_fan")
          assert.deepStrictEqual(
            [outage.reason, outage.marketplaceReason, outage.outcome],
            ["MarketplaceRejected", "Unavailable", "NotPaid"]
          )

          env.fragment.control.inject({ method: "initBuyStarsRequest", delayMs: 2_500 })
          const slow = yield* buy("slow_fan")
          assert.deepStrictEqual(
            [slow.reason, slow.marketplaceReason, slow.outcome],
            ["MarketplaceTimeout", "Timeout", "NotPaid"]
          )
          yield* Effect.sleep("2 seconds") // let the delayed answer drain

          env.fragment.control.cannotGift("nostarshere")
          const refused = yield* buy("nostarshere")
          assert.deepStrictEqual([refused.reason, refused.marketplaceReason], ["MarketplaceRejected", "Rejected"])
          env.fragment.control.reset()
        }),
      60_000
    )
  }
)
