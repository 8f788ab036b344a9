/**
 * CPU protection of the direct surface: a phrase costs a key derivation (PBKDF2, ~0.1 s of CPU), so
 * at most `permits` wallets are resolved at once, the next `queue` requests wait up to `maxWait` for
 * a turn, and only a request that finds the queue full (or waits too long) is refused, as
 * `Overloaded` (503 SERVICE_BUSY). Bots that call for all their customers from one address are
 * slowed down under load, never refused for their request rate alone.
 */
import { Direct } from "@resale/config/catalogue/LimitSettings.ts"
import { Blockchain, BlockchainError } from "@resale/core/ports/Blockchain.ts"
import { Context, type Duration, Effect, Layer, Metric, Option, Semaphore } from "effect"

export interface DerivationGateSettings {
  readonly permits: number
  readonly queue: number
  readonly maxWait: Duration.Input
}

export const DerivationGateSettings = Context.Reference<DerivationGateSettings>("http/direct/DerivationGateSettings", {
  // The catalogue's defaults; the server provides the configured ones (`DirectConfig.ts`).
  defaultValue: () => ({
    permits: Direct.DIRECT_DERIVATIONS.fallback,
    queue: Direct.DIRECT_DERIVATION_QUEUE.fallback,
    maxWait: Direct.DIRECT_DERIVATION_WAIT.fallback
  })
})

/** The key derivation queue in /metrics: requests waiting for a turn right now. */
export const derivationQueue = Metric.gauge("resale_key_derivation_queue", {
  description:
    "Direct-surface requests waiting for a key derivation turn (refused as SERVICE_BUSY past the queue limit)"
})

const overloaded = () =>
  new BlockchainError({
    reason: "Overloaded",
    message: "The service is busy deriving other wallets' keys; retry in a few seconds"
  })

/** Runs effects at most `permits` at a time; refuses at once past `queue` waiting, or after `maxWait`. */
export const makeGate = (settings: DerivationGateSettings) =>
  Effect.gen(function* () {
    const semaphore = yield* Semaphore.make(Math.max(1, settings.permits))
    let waiting = 0
    const run = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | BlockchainError, R> =>
      Effect.uninterruptibleMask((restore) =>
        Effect.gen(function* () {
          if (waiting >= settings.queue) return yield* overloaded()
          waiting++
          yield* Metric.update(derivationQueue, waiting)
          const turn = yield* restore(semaphore.take(1).pipe(Effect.timeoutOption(settings.maxWait))).pipe(
            Effect.ensuring(Effect.suspend(() => Metric.update(derivationQueue, --waiting)))
          )
          if (Option.isNone(turn)) return yield* overloaded()
          return yield* restore(effect).pipe(Effect.ensuring(semaphore.release(1)))
        })
      )
    return { run, waiting: () => waiting }
  })

/** The Blockchain in context, with `resolveWallet` (the one call that derives keys) behind the gate. */
export const GatedBlockchain = Layer.effect(
  Blockchain,
  Effect.gen(function* () {
    const chain = yield* Blockchain
    const gate = yield* makeGate(yield* DerivationGateSettings)
    return Blockchain.of({
      ...chain,
      resolveWallet: (mnemonic, options) => gate.run(chain.resolveWallet(mnemonic, options))
    })
  })
)
