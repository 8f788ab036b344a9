/**
 * The web page's wallet road (`@resale/core` `WalletCheckout`) over the chain, the marketplace, the
 * sandbox faucet and the storage in context: the same `WalletPurchases` the direct surface runs, with
 * the quotes in PostgreSQL, and the sandbox wallets the server signs for (in sandbox mode only).
 */
import { WalletCheckout } from "@resale/core/direct/WalletCheckout.ts"
import { WalletPurchases } from "@resale/core/direct/WalletPurchases.ts"
import { PgWalletQuotes } from "@resale/store/PgWalletQuotes.ts"
import { TonWalletAccounts } from "@resale/ton/PayerAccount.ts"
import { SandboxWalletsLive } from "@resale/ton/SandboxWalletsLive.ts"
import { Layer } from "effect"

export const WalletCheckoutLive = WalletCheckout.layer.pipe(
  Layer.provide([
    WalletPurchases.layer.pipe(Layer.provide([PgWalletQuotes.layer, TonWalletAccounts])),
    SandboxWalletsLive
  ])
)
