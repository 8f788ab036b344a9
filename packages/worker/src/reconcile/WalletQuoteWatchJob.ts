/**
 * The wallet road's watcher: every `ORDER_RECONCILE_DELAY` the open quotes (awaiting payment, or paid
 * and awaiting delivery) are followed on chain and with the marketplace by
 * `WalletPurchases.settleOpen`, so a buyer who pays and never reports back, or never asks again, still
 * gets the order settled. It only reads and writes conditional state changes (the service never signs
 * on this road), so several workers, or a status request beside it, settle each quote once.
 */
import { WalletPurchases } from "@resale/core/direct/WalletPurchases.ts"
import { Cause, Duration, Effect, Layer } from "effect"
import { WorkerConfig } from "../WorkerConfig.ts"

/** Open quotes looked at per round, oldest first. */
export const WATCH_BATCH = 100

export const WalletQuoteWatchJob = Layer.effectDiscard(
  Effect.gen(function* () {
    const settings = yield* WorkerConfig
    const wallets = yield* WalletPurchases
    const pause = Duration.millis(Math.max(50, Duration.toMillis(settings.reconcileDelay)))
    const round = wallets.settleOpen(WATCH_BATCH).pipe(
      Effect.tap((settled) => (settled > 0 ? Effect.logInfo(`settled ${settled} wallet quotes`) : Effect.void)),
      // A defect is logged and the job goes on after the pause: one bad quote never stops it.
      Effect.catchCause((cause) =>
        Cause.hasInterruptsOnly(cause) ? Effect.failCause(cause) : Effect.logError("wallet quote watch failed", cause)
      )
    )
    yield* Effect.forkScoped(
      round.pipe(Effect.andThen(Effect.sleep(pause)), Effect.forever, Effect.annotateLogs({ job: "wallet-quotes" }))
    )
  })
)
