/**
 * A worker's proof of life for the whole fleet: `beat` writes when this process's job loops last
 * went round into the shared store, and, at most once a minute (every 10 s while it holds nothing),
 * the hot wallet as read from the chain (a failed or slow read leaves the last one: the chain being
 * slow shows in the orders).
 */
import { Context, Duration, Effect, Layer, Ref } from "effect"
import { FleetStatus } from "../ports/FleetStatus.ts"
import { currentDate } from "../Time.ts"
import { HotWalletStatus } from "../wallet/HotWalletStatus.ts"
import { FORGET_WORKER_AFTER_SECONDS } from "./StatusRules.ts"

/** How often the hot wallet is read for the status panel. */
export const WALLET_READ_EVERY = Duration.minutes(1)
/** While it holds nothing, more often: an operator funding it waits to see the coins arrive. */
export const UNFUNDED_READ_EVERY = Duration.seconds(10)

export class FleetBeats extends Context.Service<
  FleetBeats,
  {
    /** `loopsAt`: when the job loops last went round, null before their first round. */
    readonly beat: (worker: string, startedAt: Date, loopsAt: Date | null) => Effect.Effect<void>
  }
>()("core/status/FleetBeats") {
  /** Needs FleetStatus and HotWalletStatus. */
  static readonly layer = Layer.effect(
    FleetBeats,
    Effect.gen(function* () {
      const fleet = yield* FleetStatus
      const wallet = yield* HotWalletStatus
      const lastRead = yield* Ref.make<{ readonly at: number; readonly funded: boolean } | null>(null)

      const readWallet = (now: Date) =>
        wallet.report.pipe(
          Effect.timeout(Duration.seconds(10)),
          Effect.tap((report) => Ref.set(lastRead, { at: now.getTime(), funded: report.funded })),
          Effect.map((report) => ({ report, readAt: now })),
          Effect.catchCause((cause) =>
            Effect.as(Effect.logDebug("hot wallet could not be read for the status panel", cause), null)
          )
        )

      const beat = (worker: string, startedAt: Date, loopsAt: Date | null) =>
        Effect.gen(function* () {
          const now = yield* currentDate
          const last = yield* Ref.get(lastRead)
          const every = last?.funded === false ? UNFUNDED_READ_EVERY : WALLET_READ_EVERY
          const due = last === null || now.getTime() - last.at >= Duration.toMillis(every)
          const hotWallet = due ? yield* readWallet(now) : null
          yield* fleet.beat(
            { worker, startedAt, beatAt: loopsAt ?? startedAt, hotWallet },
            new Date(now.getTime() - FORGET_WORKER_AFTER_SECONDS * 1000)
          )
        })
      return FleetBeats.of({ beat })
    })
  )
}
