/**
 * Settings of the direct surface, read once at start:
 * - DIRECT_RATE_LIMIT (requests per minute per client address, default 30), DIRECT_RATE_BURST (default 10)
 * - DIRECT_TRUST_PROXY (default false): take the client address from X-Forwarded-For (behind a proxy only)
 * - DIRECT_MAX_BODY (bytes, default 16384)
 * - DIRECT_CONFIRM_TIMEOUT (default 75 seconds), DIRECT_DELIVERY_TIMEOUT (default 60 seconds),
 *   DIRECT_POLL_INTERVAL (default 1500 millis): how long a request waits for the chain and the
 *   marketplace before it answers with an open ("unknown") outcome.
 */
import { DirectSettings, type DirectSettingsShape } from "@resale/core/direct/DirectSettings.ts"
import { Config, Context, Duration, Effect, Layer } from "effect"
import type { RateLimit } from "./RateLimiter.ts"

export interface DirectHttpSettings {
  readonly rateLimit: RateLimit
  readonly trustProxy: boolean
  readonly maxBodyBytes: number
}

export class DirectHttpConfig extends Context.Service<DirectHttpConfig, DirectHttpSettings>()("http/direct/DirectHttpConfig") {
  static readonly defaults: DirectHttpSettings = { rateLimit: { perMinute: 30, burst: 10 }, trustProxy: false, maxBodyBytes: 16_384 }

  /** From the environment, together with the core's DirectSettings. */
  static readonly layer = Layer.effectContext(Effect.gen(function*() {
    const d = DirectHttpConfig.defaults
    const perMinute = yield* Config.Int("DIRECT_RATE_LIMIT").pipe(Config.withDefault(d.rateLimit.perMinute))
    const burst = yield* Config.Int("DIRECT_RATE_BURST").pipe(Config.withDefault(d.rateLimit.burst))
    const trustProxy = yield* Config.Boolean("DIRECT_TRUST_PROXY").pipe(Config.withDefault(d.trustProxy))
    const maxBodyBytes = yield* Config.Int("DIRECT_MAX_BODY").pipe(Config.withDefault(d.maxBodyBytes))
    const confirmWithin = yield* Config.Duration("DIRECT_CONFIRM_TIMEOUT").pipe(Config.withDefault(Duration.seconds(75)))
    const deliveryWithin = yield* Config.Duration("DIRECT_DELIVERY_TIMEOUT").pipe(Config.withDefault(Duration.seconds(60)))
    const pollEvery = yield* Config.Duration("DIRECT_POLL_INTERVAL").pipe(Config.withDefault(Duration.millis(1500)))
    const core: DirectSettingsShape = { ...DirectSettings.defaultValue(), confirmWithin, deliveryWithin, pollEvery }
    return Context.make(DirectHttpConfig, {
      rateLimit: { perMinute: Math.max(1, perMinute), burst: Math.max(1, burst) },
      trustProxy,
      maxBodyBytes: Math.max(1024, maxBodyBytes)
    }).pipe(Context.add(DirectSettings, core))
  }))

  static readonly layerTest = (overrides: Partial<DirectHttpSettings> = {}) =>
    Layer.succeed(DirectHttpConfig, { ...DirectHttpConfig.defaults, ...overrides })
}
