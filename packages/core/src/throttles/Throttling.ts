import { Clock, Context, Effect, Layer } from "effect"
import { Throttles } from "../ports/Throttles.ts"
import { blockSecondsAfter, FORGET_AFTER_MS, secondsLeft } from "./TokenPolicy.ts"

const MINUTE = 60_000
/** Old rows are deleted at most this often per process, by whoever counts next. */
const FORGET_EVERY_MS = MINUTE

/**
 * The limits every process counts together (`Throttles`), for servers that run as several processes
 * on one database: an address spreading requests or token guesses over the servers meets one budget.
 * One statement per request counted; old counts are deleted as the processes go.
 */
export class Throttling extends Context.Service<
  Throttling,
  {
    /** Counts a request of `client` against `perMinute` per calendar minute: 0 when allowed, else the seconds to wait. */
    readonly request: (client: string, perMinute: number) => Effect.Effect<number>
    /** Seconds `client` must still wait before its token for `guard` is even looked at; 0 when it may try. */
    readonly tokenWait: (guard: string, client: string) => Effect.Effect<number>
    /** Counts a wrong token: the failures so far and the seconds the address is now blocked for (0: still free). */
    readonly tokenFailed: (
      guard: string,
      client: string
    ) => Effect.Effect<{ readonly failures: number; readonly blockSeconds: number }>
    /** A right token: the address's count for `guard` is cleared. */
    readonly tokenSucceeded: (guard: string, client: string) => Effect.Effect<void>
  }
>()("core/throttles/Throttling") {
  static readonly layer = Layer.effect(
    Throttling,
    Effect.gen(function* () {
      const throttles = yield* Throttles
      let requestsForgottenAt = 0
      let failuresForgottenAt = 0

      const request = Effect.fn("Throttling.request")(function* (client: string, perMinute: number) {
        const now = yield* Clock.currentTimeMillis
        const start = now - (now % MINUTE)
        if (start - requestsForgottenAt >= FORGET_EVERY_MS) {
          requestsForgottenAt = start
          yield* throttles.forgetRequests(new Date(start - 5 * MINUTE))
        }
        const hits = yield* throttles.countRequest(client, new Date(start))
        return hits <= perMinute ? 0 : Math.max(1, Math.ceil((start + MINUTE - now) / 1000))
      })

      const tokenWait = Effect.fn("Throttling.tokenWait")(function* (guard: string, client: string) {
        const now = yield* Clock.currentTimeMillis
        const counted = yield* throttles.failures(guard, client)
        return counted === undefined ? 0 : secondsLeft(counted.failures, counted.lastFailureAt.getTime(), now)
      })

      const tokenFailed = Effect.fn("Throttling.tokenFailed")(function* (guard: string, client: string) {
        const now = yield* Clock.currentTimeMillis
        if (now - failuresForgottenAt >= FORGET_EVERY_MS) {
          failuresForgottenAt = now
          yield* throttles.forgetFailures(new Date(now - FORGET_AFTER_MS))
        }
        const counted = yield* throttles.countFailure(guard, client, new Date(now), new Date(now - FORGET_AFTER_MS))
        return { failures: counted.failures, blockSeconds: blockSecondsAfter(counted.failures) }
      })

      const tokenSucceeded = (guard: string, client: string) => throttles.clearFailures(guard, client)

      return Throttling.of({ request, tokenWait, tokenFailed, tokenSucceeded })
    })
  )
}
