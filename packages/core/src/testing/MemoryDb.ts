import { Context, Effect, Exit, Layer, Result, Semaphore } from "effect"
import type { User } from "../accounts/User.ts"
import type { IncomingPayment } from "../payments/IncomingPayment.ts"
import type { LedgerEntry } from "../ledger/LedgerEntry.ts"
import type { Order } from "../orders/Order.ts"
import type { OutboxEvent } from "../outbox/OutboxEvent.ts"
import { DEFAULT_PRICES, type Prices } from "../pricing/Prices.ts"
import type { CappedAction } from "../ports/AccountActivity.ts"
import type { PushSubscription } from "../push/PushSubscription.ts"
import type { Session } from "../sessions/Session.ts"
import type { Ticket, TicketMessage } from "../tickets/Ticket.ts"
import type { Topup } from "../topups/Topup.ts"

export interface MemoryIdempotencyRecord {
  readonly endpoint: string
  readonly requestHash: string
  readonly state: "in_progress" | "completed"
  readonly response: unknown
  readonly startedAt: Date
}

/** All tables of the in-memory store. Rows are immutable: a change replaces the row, never edits it. */
export interface MemoryState {
  readonly sequences: Record<string, number>
  readonly users: Map<number, User & { readonly apiKeyHash: string | null }>
  readonly balances: Map<number, number>
  readonly ledger: Array<LedgerEntry>
  readonly topups: Map<number, Topup>
  readonly payments: Map<number, IncomingPayment>
  readonly orders: Map<number, Order>
  readonly tickets: Map<number, Ticket>
  readonly messages: Array<TicketMessage>
  prices: Prices
  readonly idempotency: Map<string, MemoryIdempotencyRecord>
  readonly sessions: Map<string, Session>
  readonly botUpdates: Set<number>
  readonly usedLogins: Map<string, Date>
  readonly push: Map<string, PushSubscription>
  readonly outbox: Map<number, OutboxEvent>
  readonly infoLookups: Map<string, number>
  readonly receipts: Map<string, { readonly bytes: Uint8Array; readonly contentType: string }>
  readonly activity: Array<{ readonly userId: number; readonly action: CappedAction; readonly at: Date }>
}

export const emptyMemoryState = (): MemoryState => ({
  sequences: {},
  users: new Map(),
  balances: new Map(),
  ledger: [],
  topups: new Map(),
  payments: new Map(),
  orders: new Map(),
  tickets: new Map(),
  messages: [],
  prices: DEFAULT_PRICES,
  idempotency: new Map(),
  sessions: new Map(),
  botUpdates: new Set(),
  usedLogins: new Map(),
  push: new Map(),
  outbox: new Map(),
  infoLookups: new Map(),
  receipts: new Map(),
  activity: []
})

/**
 * A copy of every table that shares the (immutable) rows: what a transaction restores when it fails.
 * A deep copy (`structuredClone`) made each transaction cost as much as the whole state, so a test
 * writing a thousand rows spent most of its time copying them.
 */
const snapshot = (s: MemoryState): MemoryState => ({
  sequences: { ...s.sequences },
  users: new Map(s.users),
  balances: new Map(s.balances),
  ledger: [...s.ledger],
  topups: new Map(s.topups),
  payments: new Map(s.payments),
  orders: new Map(s.orders),
  tickets: new Map(s.tickets),
  messages: [...s.messages],
  prices: s.prices,
  idempotency: new Map(s.idempotency),
  sessions: new Map(s.sessions),
  botUpdates: new Set(s.botUpdates),
  usedLogins: new Map(s.usedLogins),
  push: new Map(s.push),
  outbox: new Map(s.outbox),
  infoLookups: new Map(s.infoLookups),
  receipts: new Map(s.receipts),
  activity: [...s.activity]
})

/** Next value of a named id sequence (like a PG sequence, it is not rolled back). */
export const nextId = (state: MemoryState, name: string): number => {
  const next = (state.sequences[name] ?? 0) + 1
  state.sequences[name] = next
  return next
}

// Set while a fiber runs inside `withTransaction`, so nested calls do not wait for the held lock.
const InTransaction = Context.Reference<boolean>("core/testing/MemoryDb/InTransaction", {
  defaultValue: () => false
})

/**
 * The in-memory database behind every memory port. One global lock serialises all access; a
 * transaction holds it for its whole run and restores a snapshot of the state when it fails
 * (nested transactions restore their own snapshot, like savepoints).
 */
export class MemoryDb extends Context.Service<
  MemoryDb,
  {
    /** Runs `f` atomically on the current state; a failure must be decided before writing. */
    readonly run: <A, E = never>(f: (state: MemoryState) => Result.Result<A, E>) => Effect.Effect<A, E>
    readonly read: <A>(f: (state: MemoryState) => A) => Effect.Effect<A>
    readonly withTransaction: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
    /** The live state, for assertions in tests. */
    readonly state: () => MemoryState
  }
>()("core/testing/MemoryDb") {
  static readonly layer = Layer.effect(
    MemoryDb,
    Effect.gen(function* () {
      const lock = yield* Semaphore.make(1)
      const holder = { current: emptyMemoryState() }

      const locked = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
        Effect.flatMap(InTransaction, (inside: boolean) => (inside ? effect : lock.withPermits(1)(effect)))

      const run = <A, E = never>(f: (state: MemoryState) => Result.Result<A, E>): Effect.Effect<A, E> =>
        locked(
          Effect.flatMap(
            Effect.sync(() => f(holder.current)),
            Effect.fromResult
          )
        )

      const read = <A>(f: (state: MemoryState) => A): Effect.Effect<A> => run((state) => Result.succeed(f(state)))

      const withTransaction = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
        locked(
          Effect.suspend(() => {
            const before = snapshot(holder.current)
            return effect.pipe(
              Effect.provideService(InTransaction, true),
              Effect.onExit((exit) =>
                Exit.isFailure(exit)
                  ? Effect.sync(() => {
                      holder.current = before
                    })
                  : Effect.void
              )
            )
          })
        )

      return MemoryDb.of({ run, read, withTransaction, state: () => holder.current })
    })
  )
}
