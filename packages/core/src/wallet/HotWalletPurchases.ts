/**
 * Account orders' marketplace purchases paid from the service's hot wallet: the one use case the
 * worker calls for a stars or premium order. It takes the wallet resolved once (`HotWallet`), keys the
 * payment by the order's charge (so a repeat answers the stored payment and never pays twice) and
 * buys through `BatchedPurchases`. Also the wallet's balance for the operators' gauge.
 */
import { Context, Deferred, Effect, Layer, type Scope } from "effect"
import type { Order } from "../orders/Order.ts"
import { Nanoton } from "../money/Nanoton.ts"
import { Blockchain, type BlockchainError } from "../ports/Blockchain.ts"
import { HotWallet } from "../ports/HotWallet.ts"
import { type FulfilmentOutcome, NotDelivered } from "../orders/FulfilmentOutcome.ts"
import { BatchedPurchases, type WalletPurchase } from "./BatchedPurchases.ts"

export class HotWalletPurchases extends Context.Service<
  HotWalletPurchases,
  {
    /** Buys the order's current charge; a gift is not sold by the marketplace (not paid, final). */
    readonly buy: (order: Order) => Effect.Effect<FulfilmentOutcome>
    /** The hot wallet's balance on chain now; 0 while no wallet of its phrase is funded yet. */
    readonly balance: Effect.Effect<Nanoton, BlockchainError>
  }
>()("core/wallet/HotWalletPurchases") {
  /** Needs HotWallet, Blockchain and BatchedPurchases. */
  static readonly layer = Layer.effect(
    HotWalletPurchases,
    Effect.gen(function* () {
      const hot = yield* HotWallet
      const chain = yield* Blockchain
      const purchases = yield* BatchedPurchases
      const scope = yield* Effect.scope
      // A rush claims a thousand orders at once: they share one look at the chain instead of a thousand.
      const funded = joined(hot.ensureFunded, scope)
      const resolved = joined(hot.wallet, scope)

      const buy = Effect.fn("HotWalletPurchases.buy")(function* (order: Order) {
        const { item } = order
        if (item.kind === "gift") {
          return NotDelivered(false, "gifts are not bought from the marketplace")
        }
        const key = hot.orderKey(order.id, order.chargeSeq)
        yield* funded
        const wallet = yield* Effect.result(resolved)
        // The hot wallet cannot be looked up (node down, not funded yet): nothing was paid, try later.
        if (wallet._tag === "Failure") {
          return NotDelivered(true, `hot wallet: ${wallet.failure.reason}: ${wallet.failure.message}`)
        }
        const purchase: WalletPurchase =
          item.kind === "stars"
            ? { key, username: order.recipient, kind: "stars", units: item.stars }
            : { key, username: order.recipient, kind: "premium", units: item.months }
        return yield* purchases.buy(wallet.success, purchase)
      })

      const balance = hot.wallet.pipe(
        Effect.flatMap((wallet) => chain.balance(wallet.address)),
        // No funded wallet of any version yet: the balance is 0, which is what an alert should see.
        Effect.catchIf(
          (error) => error.reason === "WalletNotFound",
          () => Effect.succeed(Nanoton.make(0n))
        )
      )

      return HotWalletPurchases.of({ buy, balance })
    })
  )
}

/**
 * `effect` run once for every caller that arrives while it runs (and again by the next caller after
 * it ended, so nothing is kept): the run is the layer's, so a caller that stops leaves it to the others.
 */
const joined = <A, E>(effect: Effect.Effect<A, E>, scope: Scope.Scope): Effect.Effect<A, E> => {
  let running: Deferred.Deferred<A, E> | undefined
  return Effect.suspend(() => {
    if (running !== undefined) return Deferred.await(running)
    const done = Deferred.makeUnsafe<A, E>()
    running = done
    const run = effect.pipe(
      Effect.onExit((exit) =>
        Effect.andThen(
          Effect.sync(() => void (running = undefined)),
          Deferred.done(done, exit)
        )
      )
    )
    return Effect.andThen(Effect.forkIn(run, scope), Deferred.await(done))
  })
}
