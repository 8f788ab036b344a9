/**
 * The Fragment cookie sessions and their one-purchase-at-a-time rule (see MarketplaceSessions):
 * a quote holds a free session from before its init until its delivery is read as done, it is
 * cancelled, or the hold runs out; sessions of FRAGMENT_COOKIES_* serve purchases side by side.
 * Delivery is read from the session's state only while this invoice is the session's latest one;
 * otherwise the invoice is `Unattributable` and carries only its own evidence (confirmReq's answer).
 * A batched quote (its payment waits for others in one message) keeps its session too, but lends
 * it: while sessions are free its delivery is read and confirmed; a quote that finds no free session
 * takes a lent one over rather than wait, and the lender settles on its own evidence.
 */
import { randomUUID } from "node:crypto"
import { Clock, Duration, Effect, Exit, Option, Schedule, Semaphore } from "effect"
import {
  type ConfirmRequest,
  Delivered,
  MarketplaceError,
  type PayerAccount,
  Pending,
  type PurchaseKind,
  Unattributable
} from "@resale/core/ports/Marketplace.ts"
import type { MarketplaceSessions } from "@resale/core/ports/MarketplaceSessions.ts"
import type { HttpClient } from "effect/http"
import { type FragmentOptions, sessionsOf } from "./FragmentConfig.ts"
import { makeFragmentDelivery } from "./FragmentDelivery.ts"
import { type FragmentFlow, flowOf } from "./FragmentFlows.ts"
import { makeFragmentPurchase } from "./FragmentPurchase.ts"
import { type FormFields, makeFragmentTransport } from "./FragmentTransport.ts"

/** Pause between two looks for a free session. */
const TAKE_EVERY = Duration.millis(100)

export const makeSessionPool = (
  options: FragmentOptions,
  client: HttpClient.HttpClient,
  store: MarketplaceSessions["Service"]
) => {
  const holdMillis = Duration.toMillis(Duration.fromInputUnsafe(options.sessionHold ?? Duration.minutes(3)))
  const waitMillis = Duration.toMillis(Duration.fromInputUnsafe(options.sessionWait ?? Duration.seconds(30)))
  const engines = sessionsOf(options).map((session) => {
    const transport = makeFragmentTransport(options, session, client)
    return {
      label: session.label,
      purchase: makeFragmentPurchase(transport, options.priceRetries ?? 3),
      delivery: makeFragmentDelivery(transport)
    }
  })
  type Engine = (typeof engines)[number]
  let nextStart = 0
  // This process opens at most one purchase per session at a time: its other quotes wait here, not
  // by asking the shared store every TAKE_EVERY (which only arbitrates between processes).
  const local = Semaphore.makeUnsafe(engines.length)
  const holdUntil = (now: number) => new Date(now + holdMillis)
  // a state read for an older invoice holds the session no longer than two requests could take
  const readMillis = Math.max(1_000, 2 * Duration.toMillis(Duration.fromInputUnsafe(options.timeout)))

  // Sessions this process's quotes hold right now: asked for last (the store would refuse them).
  const quoting = new Set<string>()
  // Sessions this process's batched purchases lent (label -> req id): taken over only when none is free.
  const lent = new Map<string, string>()

  /**
   * A free session, held for `holder`; else one lent by a batched purchase (here first, then any
   * process's); waits up to `sessionWait` while every session is busy.
   */
  const take = Effect.fn("FragmentSessions.take")(function* (holder: string) {
    const deadline = (yield* Clock.currentTimeMillis) + waitMillis
    while (true) {
      const now = yield* Clock.currentTimeMillis
      const rotated = engines.map((_, i) => (nextStart + i) % engines.length)
      const mine = (i: number) => quoting.has(engines[i]!.label) || lent.has(engines[i]!.label)
      const asks: Array<readonly [index: number, orLent: boolean]> = [
        ...rotated.filter((i) => !mine(i)).map((i) => [i, false] as const),
        ...rotated.filter((i) => lent.has(engines[i]!.label)).map((i) => [i, true] as const),
        ...rotated.filter((i) => quoting.has(engines[i]!.label)).map((i) => [i, false] as const),
        // lent by another process: asked last, as a free session of ours may have come up meanwhile
        ...rotated.filter((i) => !mine(i)).map((i) => [i, true] as const)
      ]
      for (const [index, orLent] of asks) {
        const engine = engines[index]!
        if (yield* store.take(engine.label, holder, new Date(now), holdUntil(now), orLent)) {
          nextStart = index + 1
          // at once, so a quote taking a session beside this one does not ask for it again
          quoting.add(engine.label)
          lent.delete(engine.label)
          return engine
        }
      }
      if (now >= deadline) {
        return yield* new MarketplaceError({
          reason: "SessionBusy",
          message: "Every Fragment session is busy with another purchase; nothing was bought, retry shortly"
        })
      }
      yield* Effect.sleep(TAKE_EVERY)
    }
  })

  const quoteOnce = Effect.fn("FragmentSessions.quote")(function* (
    flow: FragmentFlow,
    username: string,
    searchFields: FormFields,
    initFields: FormFields,
    payer: PayerAccount,
    batched = false
  ) {
    const holder = `quote:${randomUUID()}`
    const engine = yield* take(holder)
    return yield* quoteHeld(engine, holder, flow, username, searchFields, initFields, payer, batched).pipe(
      Effect.ensuring(Effect.sync(() => void quoting.delete(engine.label)))
    )
  })

  const quoteHeld = (
    engine: Engine,
    taken: string,
    flow: FragmentFlow,
    username: string,
    searchFields: FormFields,
    initFields: FormFields,
    payer: PayerAccount,
    batched: boolean
  ) => {
    let holder = taken
    return Effect.gen(function* () {
      const opened = (reqId: string) =>
        Effect.gen(function* () {
          const now = yield* Clock.currentTimeMillis
          const still = yield* store.opened(engine.label, holder, reqId, holdUntil(now))
          if (!still)
            return yield* new MarketplaceError({
              reason: "Unavailable",
              message: "The Fragment session's hold ran out during the quote"
            })
          holder = reqId
        })
      const quoted = yield* engine.purchase.quote(flow, username, searchFields, initFields, payer, { opened })
      const payment = quoted.payment
      engine.delivery.remember(payment.reqId, quoted.memo)
      const record = store.record({
        reqId: payment.reqId,
        session: engine.label,
        ref: payment.ref,
        payTo: payment.address,
        amount: payment.amount
      })
      // A batched purchase lends its session: many invoices wait for one message, so the next quote may
      // take it over, but while none does the session still reads this invoice's delivery.
      // Both statements at once (neither needs the other): one round trip less while the session is held.
      yield* Effect.all([record, batched ? store.lend(engine.label, holder) : Effect.void], {
        concurrency: 2,
        discard: true
      })
      if (batched) lent.set(engine.label, holder)
      return payment
    }).pipe(
      // Nothing was paid when a quote fails (or is interrupted): its hold goes at once, not at its end.
      Effect.onExit((exit) => (Exit.isSuccess(exit) ? Effect.void : releaseFailed(engine.label, holder)))
    )
  }

  /**
   * Lets go of a failed quote's hold even while the database is away (a storage failure is a defect
   * here): tried again every second for a minute in the background, so an outage never keeps the
   * session for its whole hold while orders wait.
   */
  const releaseFailed = (session: string, holder: string) =>
    Effect.asVoid(
      Effect.forkDetach(
        store.release(session, holder).pipe(
          Effect.catchCause(() => Effect.fail("release refused" as const)),
          Effect.retry({ schedule: Schedule.spaced("1 second"), times: 60 }),
          Effect.ignore
        )
      )
    )

  const quote = (...args: Parameters<typeof quoteOnce>) => local.withPermit(quoteOnce(...args))

  /** Lets go of `holder`'s hold (and of the loan, when it was this invoice's). */
  const release = (session: string, holder: string) =>
    Effect.suspend(() => {
      if (lent.get(session) === holder) lent.delete(session)
      return store.release(session, holder)
    })

  /** The engine of the session that opened `reqId` (the only one when a single session is configured). */
  const engineOf = (session: string | undefined): Engine | undefined =>
    session === undefined ? (engines.length === 1 ? engines[0] : undefined) : engines.find((e) => e.label === session)

  const confirm = Effect.fn("FragmentSessions.confirm")(function* (request: ConfirmRequest) {
    const known = Option.getOrUndefined(yield* store.purchase(request.reqId))
    const engine = engineOf(known?.session)
    if (engine === undefined) {
      return Unattributable(
        request.reqId,
        request.ref,
        known?.confirm ?? "unsent",
        "the Fragment session of this invoice is not known here"
      )
    }
    let confirmed = known?.confirm ?? "unsent"
    if (request.boc !== undefined && confirmed !== "accepted") {
      const reported = yield* engine.delivery.report({ ...request, boc: request.boc })
      confirmed = reported.outcome
      yield* store.confirmed(request.reqId, reported.outcome, reported.note)
    }
    const now = yield* Clock.currentTimeMillis
    const mine = yield* store.resume(engine.label, request.reqId, new Date(now), new Date(now + readMillis))
    if (mine === "refused") {
      return Unattributable(
        request.reqId,
        request.ref,
        confirmed,
        `Fragment session "${engine.label}" has opened another purchase since; its state says nothing about this invoice`
      )
    }
    // a hold taken just for this read ends with it; a live purchase keeps its hold until done
    const mode = yield* engine.delivery
      .readState(request)
      .pipe(Effect.ensuring(mine === "taken" ? release(engine.label, request.reqId) : Effect.void))
    if (mode !== "done") return Pending(request.reqId, request.ref, mode, confirmed)
    yield* release(engine.label, request.reqId)
    return Delivered(request.reqId, request.ref)
  })

  const cancel = Effect.fn("FragmentSessions.cancel")(function* (kind: PurchaseKind, reqId: string) {
    const known = Option.getOrUndefined(yield* store.purchase(reqId))
    const engine = engineOf(known?.session) ?? engines[0]!
    yield* engine.purchase.cancel(flowOf(kind), reqId).pipe(Effect.ensuring(release(engine.label, reqId)))
    engine.delivery.forget(reqId)
  })

  /**
   * A recipient lookup opens no invoice, so it holds no session and never waits for one (the top-up
   * page's `mode=new` state call before its search is assumed not to disturb a purchase in progress;
   * if it did, that purchase would still settle on its own evidence).
   */
  const lookup = Effect.fn("FragmentSessions.lookup")(function* (kind: PurchaseKind, username: string) {
    const engine = engines[nextStart % engines.length]!
    return yield* engine.purchase.lookup(flowOf(kind), username)
  })

  return { quote, confirm, cancel, lookup }
}
