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
import { AppConfig } from "@resale/config"
import { Context, Effect, Layer } from "effect"
import type { RateLimit } from "./RateLimiter.ts"

export interface DirectHttpSettings {
  readonly rateLimit: RateLimit
  readonly trustProxy: boolean
  readonly maxBodyBytes: number
}

export class DirectHttpConfig extends Context.Service<DirectHttpConfig, DirectHttpSettings>()("http/direct/DirectHttpConfig") {
  static readonly defaults: DirectHttpSettings = { rateLimit: { perMinute: 30, burst: 10 }, trustProxy: false, maxBodyBytes: 16_384 }

  /** From the one configuration (`@resale/config`), together with the core's DirectSettings. */
  static readonly layer = Layer.effectContext(Effect.map(AppConfig, ({ direct }) => {
    const core: DirectSettingsShape = {
      ...DirectSettings.defaultValue(),
      confirmWithin: direct.confirmWithin,
      deliveryWithin: direct.deliveryWithin,
      pollEvery: direct.pollEvery
    }
    return Context.make(DirectHttpConfig, {
      rateLimit: { perMinute: Math.max(1, direct.ratePerMinute), burst: Math.max(1, direct.rateBurst) },
      trustProxy: direct.trustProxy,
      maxBodyBytes: Math.max(1024, direct.maxBodyBytes)
    }).pipe(Context.add(DirectSettings, core))
  }))

  static readonly layerTest = (overrides: Partial<DirectHttpSettings> = {}) =>
    Layer.succeed(DirectHttpConfig, { ...DirectHttpConfig.defaults, ...overrides })
}
