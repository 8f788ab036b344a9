import { Payments } from "@resale/core/payments/Payments.ts"
import { TopupService } from "@resale/core/topups/TopupService.ts"
import { Effect } from "effect"
import { WorkerConfig } from "../WorkerConfig.ts"

/**
 * The payments job's steps, each one core use case with the worker's settings: re-matching applies
 * the very rules of a bank payment's arrival (`Payments.rematchUnmatched`), so no path of the
 * worker confirms a top-up on its own.
 */
export const rematchRound = Effect.gen(function* () {
  const settings = yield* WorkerConfig
  return yield* (yield* Payments).rematchUnmatched({ window: settings.rematchWindow })
}).pipe(Effect.withSpan("PaymentsJob.rematchRound"))

/** One round: unmatched payments tried again, then pending top-ups past their expiry expired. */
export const paymentsRound = Effect.gen(function* () {
  const rematched = yield* rematchRound
  const expired = yield* (yield* TopupService).expireDue
  return { rematched, expired }
}).pipe(Effect.withSpan("PaymentsJob.round"))
