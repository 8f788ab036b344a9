/**
 * The emulator's time like the network's: with a block interval, an external message sent to the
 * sandbox waits in a mempool and runs with the next block, so its transactions (and the state they
 * change) become visible only then, and waiting for a confirmation costs what it costs on mainnet
 * (a few seconds). Interval zero runs every message at once, as the bare emulator does (tests,
 * `npm start`). A message the chain refuses when its block runs (a used seqno, an expired one) is
 * dropped, as validators drop it: the sender learns it only by not finding it.
 */
import { type Blockchain as Emulator, EmulationError } from "@ton/sandbox"
import type { Cell } from "@ton/ton"
import { Duration, Effect, Schedule, type Scope } from "effect"

export interface SandboxBlocks {
  /** Zero: no blocks, messages run at once. */
  readonly interval: Duration.Duration
  /**
   * Hands an external message to the chain. Without blocks it runs now (the emulator's refusal is
   * thrown, as a node refuses an external it cannot apply); with blocks it joins the mempool.
   */
  readonly submit: (message: Cell) => Promise<void>
}

/** How a message runs on the emulator (the sandbox chain's own way may lose a payment on purpose: `SandboxDrops.ts`). */
export type RunMessage = (message: Cell) => Promise<unknown>

/** Runs every message at once (no block interval). */
export const immediateBlocks = (
  emulator: Emulator,
  run: RunMessage = (m) => emulator.sendMessage(m)
): SandboxBlocks => ({
  interval: Duration.zero,
  submit: async (message) => void (await run(message))
})

/**
 * Blocks every `interval` for as long as the scope lives; `afterBlock` runs once a block held
 * messages (the sandbox saves its state then).
 */
export const makeSandboxBlocks = (
  emulator: Emulator,
  interval: Duration.Input,
  afterBlock: Effect.Effect<void, unknown>,
  run: RunMessage = (m) => emulator.sendMessage(m)
): Effect.Effect<SandboxBlocks, never, Scope.Scope> =>
  Effect.gen(function* () {
    const every = Duration.fromInputUnsafe(interval)
    if (Duration.toMillis(every) <= 0) return immediateBlocks(emulator, run)
    let mempool: Array<Cell> = []
    const block = Effect.gen(function* () {
      if (mempool.length === 0) return
      const messages = mempool
      mempool = []
      for (const message of messages) {
        yield* Effect.tryPromise(() => run(message)).pipe(
          Effect.catch((error) =>
            error.cause instanceof EmulationError
              ? Effect.logDebug(
                  `sandbox block dropped an external message (exit code ${error.cause.exitCode ?? "none"})`
                )
              : Effect.logWarning("sandbox block could not run an external message", error.cause)
          )
        )
      }
      yield* Effect.ignore(afterBlock)
    })
    // At a fixed rate, as the network's blocks: the time a block takes to run does not push the next one back.
    yield* Effect.forkScoped(Effect.andThen(Effect.sleep(every), Effect.repeat(block, Schedule.fixed(every))))
    return {
      interval: every,
      submit: (message) => Promise.resolve(void mempool.push(message))
    } satisfies SandboxBlocks
  })
