import { Clock, Context, Effect, Layer } from "effect"

/**
 * Wrong operator tokens (the admin sign-in form and `X-Admin-Token`) per client address: a few are
 * free (typos), then every further one blocks the address for a doubling time, at most a minute, so
 * guessing runs at about one try a minute while the operator's own address is never shut out for
 * long. A right token clears the address. Every failure is logged. In memory, per process.
 * `/metrics`' bearer token has a guard of its own (`server/MetricsAccess.ts`), made the same way.
 */
export const FREE_FAILURES = 5
export const FIRST_BLOCK_SECONDS = 5
export const MAX_BLOCK_SECONDS = 60
/** Failures older than this are forgotten. */
const FORGET_AFTER_MS = 15 * 60 * 1000
const MAX_ADDRESSES = 10_000

interface Record {
  failures: number
  lastFailureAt: number
  blockedUntil: number
}

/** The guard of one secret: each secret guarded has its own instance, so one's guessing never blocks another. */
export interface TokenGuard<Via extends string> {
  /** Seconds `client` must still wait before its token is even looked at; 0 when it may try. */
  readonly waitFor: (client: string) => Effect.Effect<number>
  /** Records a wrong token from `client`; returns the seconds it is now blocked for (0: still free). */
  readonly failed: (client: string, via: Via) => Effect.Effect<number>
  readonly succeeded: (client: string) => Effect.Effect<void>
}

/** A guard for the secret named `what` in its log lines ("operator token", "metrics token"). */
export const makeTokenGuard = <Via extends string>(what: string): Effect.Effect<TokenGuard<Via>> =>
  Effect.sync(() => {
    const records = new Map<string, Record>()

    const waitFor = (client: string) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        const record = records.get(client)
        return record === undefined || record.blockedUntil <= now ? 0 : Math.ceil((record.blockedUntil - now) / 1000)
      })

    const failed = Effect.fn("TokenGuard.failed")(function* (client: string, via: Via) {
      const now = yield* Clock.currentTimeMillis
      const previous = records.get(client)
      const record =
        previous !== undefined && now - previous.lastFailureAt < FORGET_AFTER_MS
          ? previous
          : { failures: 0, lastFailureAt: now, blockedUntil: 0 }
      record.failures += 1
      record.lastFailureAt = now
      const over = record.failures - FREE_FAILURES
      const blockSeconds = over < 0 ? 0 : Math.min(MAX_BLOCK_SECONDS, FIRST_BLOCK_SECONDS * 2 ** over)
      record.blockedUntil = now + blockSeconds * 1000
      // Re-inserted so the map stays in least-recently-failed order for pruning.
      records.delete(client)
      records.set(client, record)
      if (records.size > MAX_ADDRESSES) records.delete(records.keys().next().value ?? "")
      yield* Effect.logWarning(`${what} refused`).pipe(
        Effect.annotateLogs({ client, via, failures: record.failures, blocked_seconds: blockSeconds })
      )
      return blockSeconds
    })

    const succeeded = (client: string) => Effect.sync(() => void records.delete(client))

    return { waitFor, failed, succeeded }
  })

export class OperatorTokenGuard extends Context.Service<
  OperatorTokenGuard,
  TokenGuard<"sign-in form" | "x-admin-token">
>()("http/auth/OperatorTokenGuard") {
  static readonly make = Effect.map(
    makeTokenGuard<"sign-in form" | "x-admin-token">("operator token"),
    OperatorTokenGuard.of
  )

  static readonly layer = Layer.effect(OperatorTokenGuard, OperatorTokenGuard.make)
}

export const tooManyFailures = (seconds: number, what = "operator tokens") =>
  `Too many wrong ${what} from your address; try again in ${seconds} s`
