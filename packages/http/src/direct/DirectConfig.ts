/**
 * Settings of the direct surface, read once at start by `@resale/config` (the `DIRECT_*` settings of its
 * catalogue, with their defaults and meanings): the rate limit (in memory or shared in PostgreSQL), the
 * client address behind a proxy, the largest body, the key-derivation gate (past it, 503 SERVICE_BUSY),
 * the longest answer (then 409 PENDING_TRANSACTION), the replay window and the waits for the chain and
 * the marketplace before an outcome is left open ("unknown") for reconciliation.
 */
import { DirectSettings, type DirectSettingsShape } from "@resale/core/direct/DirectSettings.ts"
import { AppConfig } from "@resale/config"
import { Direct } from "@resale/config/catalogue/LimitSettings.ts"
import { Context, Effect, Layer } from "effect"
import { DerivationGateSettings } from "./DerivationGate.ts"
import type { RateLimit } from "@resale/webkit/RateLimiter.ts"

export interface DirectHttpSettings {
  readonly rateLimit: RateLimit
  /** Count requests in PostgreSQL (several instances) instead of in memory. */
  readonly sharedRateLimit: boolean
  readonly trustProxy: boolean
  readonly maxBodyBytes: number
}

export class DirectHttpConfig extends Context.Service<DirectHttpConfig, DirectHttpSettings>()(
  "http/direct/DirectHttpConfig"
) {
  /** The catalogue's defaults (for tests). */
  static readonly defaults: DirectHttpSettings = {
    rateLimit: { perMinute: Direct.DIRECT_RATE_LIMIT.fallback, burst: Direct.DIRECT_RATE_BURST.fallback },
    // unset falls back on the database in use: tests count in memory
    sharedRateLimit: false,
    trustProxy: Direct.DIRECT_TRUST_PROXY.fallback,
    maxBodyBytes: Direct.DIRECT_MAX_BODY.fallback
  }

  /** From the one configuration (`@resale/config`), with the core's DirectSettings and the derivation gate's. */
  static readonly layer = Layer.effectContext(
    Effect.map(AppConfig, ({ direct }) => {
      const core: DirectSettingsShape = {
        ...DirectSettings.defaultValue(),
        confirmWithin: direct.confirmWithin,
        deliveryWithin: direct.deliveryWithin,
        pollEvery: direct.pollEvery,
        answerWithin: direct.answerWithin,
        replayWithin: direct.replayWithin
      }
      return Context.make(DirectHttpConfig, {
        rateLimit: { perMinute: Math.max(1, direct.ratePerMinute), burst: Math.max(1, direct.rateBurst) },
        sharedRateLimit: direct.rateShared,
        trustProxy: direct.trustProxy,
        maxBodyBytes: Math.max(1024, direct.maxBodyBytes)
      }).pipe(
        Context.add(DirectSettings, core),
        Context.add(DerivationGateSettings, {
          permits: Math.max(1, direct.derivations),
          queue: Math.max(0, direct.derivationQueue),
          maxWait: direct.derivationWait
        })
      )
    })
  )

  static readonly layerTest = (overrides: Partial<DirectHttpSettings> = {}) =>
    Layer.succeed(DirectHttpConfig, { ...DirectHttpConfig.defaults, ...overrides })
}
