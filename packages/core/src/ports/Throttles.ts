import { Context, type Effect } from "effect"

/** A client's wrong tokens for one guarded secret, as counted so far. */
export interface TokenFailures {
  readonly failures: number
  readonly lastFailureAt: Date
}

/**
 * Counters that every process of the service shares (several servers on one database), so a limit
 * holds for the service and not per process: requests per client and minute (the direct surface) and
 * wrong tokens per guarded secret and client (the operator and metrics tokens). Each update is one
 * atomic statement.
 */
export class Throttles extends Context.Service<
  Throttles,
  {
    /** Counts one request of `client` in the window starting at `windowStart`; the window's count so far. */
    readonly countRequest: (client: string, windowStart: Date) => Effect.Effect<number>
    /** Forgets the request windows that started before `before`. */
    readonly forgetRequests: (before: Date) => Effect.Effect<void>
    /**
     * Counts one wrong token of `client` for `guard` at `at`; a count whose last failure is older than
     * `forgetBefore` starts again at 1. The count after this one.
     */
    readonly countFailure: (guard: string, client: string, at: Date, forgetBefore: Date) => Effect.Effect<TokenFailures>
    /** The count of `client` for `guard`; `undefined` when it has none. */
    readonly failures: (guard: string, client: string) => Effect.Effect<TokenFailures | undefined>
    /** Clears the count of `client` for `guard` (a right token). */
    readonly clearFailures: (guard: string, client: string) => Effect.Effect<void>
    /** Forgets every count whose last failure is older than `before`. */
    readonly forgetFailures: (before: Date) => Effect.Effect<void>
  }
>()("core/ports/Throttles") {}
