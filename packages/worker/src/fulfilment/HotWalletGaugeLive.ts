/**
 * `resale_hot_wallet_balance_ton`: the balance of the wallet account orders are paid from, read from
 * the chain once a minute (the chain is not the database, so it is not read at scrape time). A read
 * that fails leaves the last value and says so at debug level only: the chain being slow is reported
 * by the orders themselves.
 */
import { HotWalletPurchases } from "@resale/core/wallet/HotWalletPurchases.ts"
import { Effect, Layer, Metric, Schedule } from "effect"

const NANO = 1_000_000_000

export const hotWalletBalance = Metric.gauge("resale_hot_wallet_balance_ton", {
  description: "Balance of the hot wallet that pays Fragment for balance orders, in TON (read every minute)"
})

export const HotWalletGaugeLive = Layer.effectDiscard(
  Effect.gen(function* () {
    const hot = yield* HotWalletPurchases
    // The wallet is resolved once (the HotWallet port); each read is one balance look-up, no key derivation.
    const read = hot.balance.pipe(
      Effect.map((balance) => Number(balance) / NANO),
      Effect.flatMap((ton) => Metric.update(hotWalletBalance, ton)),
      Effect.catchCause((cause) => Effect.logDebug("hot wallet balance could not be read", cause))
    )
    yield* Effect.forkScoped(Effect.repeat(read, Schedule.spaced("1 minute")))
  })
)
