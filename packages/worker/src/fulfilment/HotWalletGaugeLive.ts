/**
 * `resale_hot_wallet_balance_ton`: the balance of the wallet account orders are paid from, read from
 * the chain once a minute (the chain is not the database, so it is not read at scrape time). A read
 * that fails leaves the last value and says so at debug level only: the chain being slow is reported
 * by the orders themselves.
 */
import { Blockchain } from "@resale/core/ports/Blockchain.ts"
import { Effect, Layer, Metric, Schedule } from "effect"
import { HotWallet } from "./HotWallet.ts"

const NANO = 1_000_000_000

export const hotWalletBalance = Metric.gauge("resale_hot_wallet_balance_ton", {
  description: "Balance of the hot wallet that pays Fragment for balance orders, in TON (read every minute)"
})

export const HotWalletGaugeLive = Layer.effectDiscard(Effect.gen(function*() {
  const chain = yield* Blockchain
  const hot = yield* HotWallet
  // The wallet is resolved once (HotWallet); each read is one balance look-up, no key derivation.
  const read = hot.wallet.pipe(
    Effect.flatMap((wallet) => chain.balance(wallet.address)),
    Effect.map((balance) => Number(balance) / NANO),
    // No funded wallet of any version yet: the balance is 0, which is what an alert should see.
    Effect.catchIf((error) => error.reason === "WalletNotFound", () => Effect.succeed(0)),
    Effect.flatMap((ton) => Metric.update(hotWalletBalance, ton)),
    Effect.catchCause((cause) => Effect.logDebug("hot wallet balance could not be read", cause))
  )
  yield* Effect.forkScoped(Effect.repeat(read, Schedule.spaced("1 minute")))
}))
