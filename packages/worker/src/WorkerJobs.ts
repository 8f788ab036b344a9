import { Idempotency } from "@resale/core/idempotency/Idempotency.ts"
import { OrderWork } from "@resale/core/orders/OrderWork.ts"
import { NotificationDelivery } from "@resale/core/outbox/NotificationDelivery.ts"
import type { Payments } from "@resale/core/payments/Payments.ts"
import type { TopupService } from "@resale/core/topups/TopupService.ts"
import { WebhookDispatch } from "@resale/core/webhooks/WebhookDispatch.ts"
import { beat } from "@resale/observability/WorkerHeartbeat.ts"
import { Cause, Duration, Effect, Layer, Scope, Semaphore } from "effect"
import { Fulfilment } from "./fulfilment/Fulfilment.ts"
import { paymentsRound } from "./payments/PaymentsJob.ts"
import { WorkerConfig } from "./WorkerConfig.ts"

/**
 * Runs `step` forever: after a busy round at once, after an idle one (`false`) following `idle`.
 * A defect is logged and the loop goes on after the idle pause: one bad row never stops a job.
 */
const loop = (name: string, step: Effect.Effect<boolean>, idle: Duration.Duration) =>
  Effect.sync(beat).pipe(
    Effect.andThen(step),
    Effect.catchCause((cause) =>
      Cause.hasInterruptsOnly(cause)
        ? Effect.failCause(cause)
        : Effect.as(Effect.logError(`${name} failed`, cause), false)
    ),
    Effect.flatMap((busy) => (busy ? Effect.void : Effect.sleep(idle))),
    Effect.forever,
    Effect.annotateLogs({ job: name })
  )

/** Every `interval`, `step` (its result ignored). */
const every = <A>(name: string, step: Effect.Effect<A>, interval: Duration.Duration) =>
  loop(name, Effect.as(step, false), interval)

/**
 * One step of the webhook job: waits for a free slot of `concurrency`, starts the next due send in its
 * own fiber (in the caller's scope), true when one started. A receiver that hangs holds one slot for
 * one bounded attempt, never the loop, and claims give each endpoint one send at a time.
 */
export const webhookSends = (dispatch: WebhookDispatch["Service"], concurrency: number) =>
  Effect.gen(function* () {
    const slots = yield* Semaphore.make(Math.max(1, concurrency))
    const sending = yield* Scope.fork(yield* Effect.scope, "parallel")
    return Effect.gen(function* () {
      yield* slots.take(1)
      const started = yield* dispatch.startNext(sending, Effect.asVoid(slots.release(1)))
      if (!started) yield* slots.release(1)
      return started
    })
  })

/**
 * The worker's jobs, started with the layer and interrupted when its scope closes (SIGTERM through
 * `NodeRuntime.runMain`): an order in the middle of a payment finishes that payment first (a batch
 * signed or being signed runs uninterruptibly), then is handed back to the queue; an order whose
 * invoice only waited for the next batch is handed back at once, its invoice never signed.
 * - fulfilment: one loop claiming due orders (FOR UPDATE SKIP LOCKED) while fewer than `concurrency`
 *   are carried, each in its own fiber;
 * - rescue: orders of dead workers back to the queue, every half lease;
 * - payments: re-match unmatched card payments, expire top-ups (open direct purchases are settled by
 *   the reconcile job);
 * - notifications: outbox delivery by web push and bot message (and the fan-out to webhook endpoints);
 * - webhooks: signed POSTs of due webhook deliveries (one in flight per endpoint, endpoints in turn,
 *   up to `notifyBatch` at once), retried with backoff for a day;
 * - idempotency-prune: hourly, forgets Idempotency-Keys older than 24 hours.
 */
/** Orders claimed by one statement at most: a rush's claim stays a short statement and lock. */
const CLAIM_AT_ONCE = 64

export const WorkerJobs = Layer.effectDiscard(
  Effect.gen(function* () {
    const settings = yield* WorkerConfig
    const fulfilment = yield* Fulfilment
    const work = yield* OrderWork
    const payments = yield* Effect.context<Payments | TopupService | WorkerConfig>()
    const delivery = yield* NotificationDelivery
    const idempotency = yield* Idempotency
    const webhooks = yield* WebhookDispatch

    // One loop claims while a slot is free and carries each order in its own fiber: an idle worker
    // asks for due orders once per poll whatever WORKER_CONCURRENCY is, so it can be large (a rush's
    // invoices then fill big hot-wallet batches).
    const slots = yield* Semaphore.make(Math.max(1, settings.concurrency))
    // The orders' own scope closes after the claiming loop is stopped (finalizers run last-in first):
    // nothing is claimed into a closing scope, and every order carried is handed back.
    const carried = yield* Scope.fork(yield* Effect.scope, "parallel")
    // Every free slot (up to CLAIM_AT_ONCE) is filled by one claim: one statement per wake, not per order.
    const dispatch = Effect.gen(function* () {
      yield* slots.take(1)
      let free = 1
      while (free < CLAIM_AT_ONCE && (yield* slots.takeIfAvailable(1))) free++
      // A failed claim took no order: its slots go back (the loop logs it and goes on).
      const started = yield* fulfilment
        .startDue(carried, free, Effect.asVoid(slots.release(1)))
        .pipe(Effect.onError(() => Effect.asVoid(slots.release(free))))
      if (started < free) yield* slots.release(free - started)
      // Fewer due than asked for: none is left now, so the loop waits for its poll like an empty claim.
      return started === free
    })
    yield* Effect.forkScoped(loop("fulfilment", dispatch, settings.pollInterval))
    yield* Effect.forkScoped(
      every("rescue", work.rescueStale, Duration.millis(Math.max(50, Duration.toMillis(settings.orderLease) / 2)))
    )
    yield* Effect.forkScoped(
      every("payments", Effect.provideContext(paymentsRound, payments), settings.paymentsInterval)
    )
    yield* Effect.forkScoped(every("idempotency-prune", idempotency.pruneExpired, Duration.hours(1)))
    yield* Effect.forkScoped(
      loop(
        "notifications",
        Effect.map(delivery.runOnce, (n) => n > 0),
        settings.notifyInterval
      )
    )
    yield* Effect.forkScoped(
      loop("webhooks", yield* webhookSends(webhooks, settings.notifyBatch), settings.notifyInterval)
    )
    yield* Effect.logInfo(
      `worker started: up to ${settings.concurrency} orders at once${settings.sandbox ? ", sandbox mode" : ""}`
    )
    // Runs before the loops are interrupted (finalizers run in reverse order).
    yield* Effect.addFinalizer(() =>
      Effect.logInfo("worker stopping: jobs interrupted, a payment in progress finishes first")
    )
  })
)
