import { Throttling } from "@resale/core/throttles/Throttling.ts"
import { blockSecondsAfter, FORGET_AFTER_MS } from "@resale/core/throttles/TokenPolicy.ts"
import { Clock, Context, Effect, Layer, Option } from "effect"
import { HttpConfig, type HttpSettings } from "./HttpConfig.ts"

/**
 * Wrong operator tokens (the admin sign-in form and `X-Admin-Token`) per client address, answered by
 * the core's policy (`TokenPolicy.ts`: a few free, then a doubling block of at most a minute; a right
 * token clears the address). Every failure is logged. Two kinds of guard:
 * - `makeTokenGuard`: counted in this process's memory: the embedded database's `npm start`, which is
 *   one process by construction;
 * - `makeSharedTokenGuard`: counted in PostgreSQL through the core's `Throttling`, so guesses spread
 *   over several servers on one database meet one budget (any server with `DATABASE_URL`).
 * `/metrics`' bearer token has a guard of its own (`server/MetricsAccess.ts`), made the same way.
 */
export { FIRST_BLOCK_SECONDS, FREE_FAILURES, MAX_BLOCK_SECONDS } from "@resale/core/throttles/TokenPolicy.ts"
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
      const blockSeconds = blockSecondsAfter(record.failures)
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

/**
 * The guard of the secret named `what`, counted under `name` in PostgreSQL by every server on the
 * database. Each address's count lives in one row, updated by one statement per wrong token.
 */
export const makeSharedTokenGuard = <Via extends string>(
  what: string,
  name: string
): Effect.Effect<TokenGuard<Via>, never, Throttling> =>
  Effect.map(Effect.service(Throttling), (throttling) => ({
    waitFor: (client: string) => throttling.tokenWait(name, client),
    failed: (client: string, via: Via) =>
      Effect.flatMap(throttling.tokenFailed(name, client), ({ failures, blockSeconds }) =>
        Effect.as(
          Effect.logWarning(`${what} refused`).pipe(
            Effect.annotateLogs({ client, via, failures, blocked_seconds: blockSeconds })
          ),
          blockSeconds
        )
      ),
    succeeded: (client: string) => throttling.tokenSucceeded(name, client)
  }))

/** The guard for a server: shared through PostgreSQL with `DATABASE_URL`, in memory on the embedded database. */
export const tokenGuardFor = <Via extends string>(
  settings: { readonly databaseUrl?: HttpSettings["databaseUrl"] },
  what: string,
  name: string
): Effect.Effect<TokenGuard<Via>, never, Throttling> =>
  settings.databaseUrl !== undefined && Option.isSome(settings.databaseUrl)
    ? makeSharedTokenGuard<Via>(what, name)
    : makeTokenGuard<Via>(what)

type OperatorVia = "sign-in form" | "x-admin-token"

export class OperatorTokenGuard extends Context.Service<OperatorTokenGuard, TokenGuard<OperatorVia>>()(
  "http/auth/OperatorTokenGuard"
) {
  /** In memory (one process). */
  static readonly make = Effect.map(makeTokenGuard<OperatorVia>("operator token"), OperatorTokenGuard.of)

  static readonly layer = Layer.effect(
    OperatorTokenGuard,
    Effect.flatMap(Effect.service(HttpConfig), (settings) =>
      Effect.map(tokenGuardFor<OperatorVia>(settings, "operator token", "operator"), OperatorTokenGuard.of)
    )
  )
}

export const tooManyFailures = (seconds: number, what = "operator tokens") =>
  `Too many wrong ${what} from your address; try again in ${seconds} s`
