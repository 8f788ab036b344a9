import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { CoreServices } from "../CoreServices.ts"
import { TopupService } from "../topups/TopupService.ts"
import { TopupSettings, type TopupSettingsShape } from "../topups/TopupSettings.ts"
import { signUp } from "./fixtures.ts"

/** Every top-up setting set apart from its default, so each use shows which value it saw. */
export const STRICT_TOPUP_SETTINGS: TopupSettingsShape = {
  minUzs: 5_000,
  maxUzs: 10_000,
  ttlMs: 60_000,
  receiptMaxBytes: 100,
  payableQuarantineMs: 120_000
}

/** What `reachObserved` sees when every use got `STRICT_TOPUP_SETTINGS` (defaults differ on each line). */
export const STRICT_TOPUP_OBSERVED: Effect.Success<typeof reachObserved> = {
  belowMin: [5_000, 10_000],
  aboveMax: [5_000, 10_000],
  ttlMs: 60_000,
  receiptOverLimit: "TooLarge",
  receiptAtLimit: "review",
  beforeWindowEnds: 5_001,
  afterWindowEnds: 5_000
}

/**
 * The use cases over `ports`, with the settings given the way a composition root gives them: to the
 * services' layer, never around a call (they are read once, when the layer is built).
 */
export const coreWithTopupSettings = <A, E, R>(settings: TopupSettingsShape, ports: Layer.Layer<A, E, R>) =>
  CoreServices.pipe(Layer.provide(Layer.succeed(TopupSettings)(settings)), Layer.provideMerge(ports))

const png = (size: number) => {
  const bytes = new Uint8Array(size)
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  return bytes
}

/** Touches every use of the settings once: amount bounds, expiry, receipt size, quarantine window. */
export const reachObserved = Effect.gen(function* () {
  const topups = yield* TopupService
  const [alice, bob, carol] = [yield* signUp(), yield* signUp(), yield* signUp()]
  const bounds = (amount: number) =>
    Effect.map(Effect.flip(topups.create(alice.id, amount)), (e) =>
      e._tag === "TopupAmountInvalid" ? [e.min, e.max] : e._tag
    )
  const belowMin = yield* bounds(STRICT_TOPUP_SETTINGS.minUzs - 1)
  const aboveMax = yield* bounds(STRICT_TOPUP_SETTINGS.maxUzs + 1)
  const first = yield* topups.create(alice.id, 5_000)
  const overLimit = yield* Effect.flip(topups.createWithReceipt(bob.id, 6_000, png(101)))
  const atLimit = yield* topups.createWithReceipt(bob.id, 6_000, png(100))
  yield* topups.cancel(alice.id, first.id)
  yield* TestClock.adjust(STRICT_TOPUP_SETTINGS.payableQuarantineMs! - 1_000)
  const before = yield* topups.create(bob.id, 5_000)
  yield* TestClock.adjust(1_000)
  const after = yield* topups.create(carol.id, 5_000)
  return {
    belowMin,
    aboveMax,
    ttlMs: first.expiresAt!.getTime() - first.createdAt.getTime(),
    receiptOverLimit: overLimit._tag === "ReceiptInvalid" ? overLimit.reason : overLimit._tag,
    receiptAtLimit: atLimit.status,
    beforeWindowEnds: before.payableUzs as number,
    afterWindowEnds: after.payableUzs as number
  }
})
