/**
 * HotWallet port: the service's own wallet, the one that pays the marketplace for account orders.
 * Resolved once per process (its keys derived once from the configured phrase and kept in memory only,
 * inside the `Wallet`'s Redacted); the adapter decides which contract pays (`HOT_WALLET_VERSION`, or
 * the phrase's funded one), so another wallet version is a change of the adapter, not of its callers.
 */
import { Context, type Effect } from "effect"
import type { BlockchainError, Wallet } from "./Blockchain.ts"

export class HotWallet extends Context.Service<
  HotWallet,
  {
    /**
     * The wallet itself. A failure (not funded yet, node down) is not kept: the next call tries again;
     * a success is, and every purchase reuses it.
     */
    readonly wallet: Effect.Effect<Wallet, BlockchainError>
    /**
     * The exactly-once key of one charge of an account order: stable across attempts and restarts, and
     * unguessable (keyed by the wallet's secret), so no other caller can claim it first.
     */
    readonly orderKey: (orderId: number, chargeSeq: number) => string
    /** Sandbox: makes sure the sandbox faucet has funded the wallet; elsewhere nothing (only operators fund it). */
    readonly ensureFunded: Effect.Effect<void>
  }
>()("core/ports/HotWallet") {}
