/**
 * Settings of the direct surface, read once at start:
 * - DIRECT_RATE_LIMIT (requests per minute per client address, default 600), DIRECT_RATE_BURST
 *   (default 100), DIRECT_RATE_SHARED (true: counted in PostgreSQL, one budget for every server;
 *   false: in this process's memory; unset: true with DATABASE_URL, false on the embedded database)
 * - DIRECT_TRUST_PROXY (default false): take the client address from X-Forwarded-For (behind a proxy only)
 * - DIRECT_MAX_BODY (bytes, default 16384)
 * - DIRECT_DERIVATIONS (wallets resolved at once, default 4), DIRECT_DERIVATION_QUEUE (requests
 *   waiting for a turn, default 100), DIRECT_DERIVATION_WAIT (default 5 seconds): past these, 503 SERVICE_BUSY
 * - DIRECT_ANSWER_TIMEOUT (default 25 seconds): the longest a request waits; a payment still running
 *   then answers 409 PENDING_TRANSACTION with its order id and finishes in the background
 * - DIRECT_REPLAY_WINDOW (default 15 minutes): an identical request under the id of an order finished
 *   this recently gets that order's result
 * - DIRECT_CONFIRM_TIMEOUT (default 75 seconds), DIRECT_DELIVERY_TIMEOUT (default 60 seconds),
 *   DIRECT_POLL_INTERVAL (default 1500 millis): how long a payment waits for the chain and the
 *   marketplace before its outcome is left open ("unknown") for reconciliation.
 */
import { DirectSettings, type DirectSettingsShape } from "@resale/core/direct/DirectSettings.ts"
import { AppConfig } from "@resale/config"
import { Context, Effect, Layer } from "effect"
import { DerivationGateSettings } from "./DerivationGate.ts"
import type { RateLimit } from "./RateLimiter.ts"

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
  static readonly defaults: DirectHttpSettings = {
    rateLimit: { perMinute: 600, burst: 100 },
    sharedRateLimit: false,
    trustProxy: false,
    maxBodyBytes: 16_384
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
