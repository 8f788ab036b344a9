/**
 * The web page's wallet road (`@resale/core` `WalletCheckout`) over the chain, the marketplace, the
 * sandbox faucet and the storage in context: the same `WalletPurchases` the direct surface runs, with
 * the quotes in PostgreSQL, and the sandbox wallets the server signs for (in sandbox mode only). With it
 * the page's limit per client address (`WalletPageLimiter`), of the direct surface's settings
 * (`DirectHttpConfig`), counted in PostgreSQL (core's `Throttling`) when the direct limit is.
 */
import { WalletCheckout } from "@resale/core/direct/WalletCheckout.ts"
import { WalletPurchases } from "@resale/core/direct/WalletPurchases.ts"
import { PgWalletQuotes } from "@resale/store/PgWalletQuotes.ts"
import { TonWalletAccounts } from "@resale/ton/PayerAccount.ts"
import { SandboxWalletsLive } from "@resale/ton/SandboxWalletsLive.ts"
import { RateLimiter, WalletPageLimiter } from "@resale/webkit/RateLimiter.ts"
import { Effect, Layer } from "effect"
import { DirectHttpConfig } from "../direct/DirectConfig.ts"

/** The wallet page's limiter: memory or PostgreSQL counts, as the direct surface's (`DIRECT_RATE_SHARED`). */
export const WalletPageLimiterLive = Layer.effect(
  WalletPageLimiter,
  Effect.flatMap(Effect.service(DirectHttpConfig), (settings) =>
    RateLimiter.chosen(settings.rateLimit, settings.sharedRateLimit)
  )
)

export const WalletCheckoutLive = Layer.mergeAll(
  WalletCheckout.layer.pipe(
    Layer.provide([
      WalletPurchases.layer.pipe(Layer.provide([PgWalletQuotes.layer, TonWalletAccounts])),
      SandboxWalletsLive
    ])
  ),
  WalletPageLimiterLive
)
