import { Context, type Effect } from "effect"
import type { BlockchainError, Nanoton } from "./Blockchain.ts"
import type { PayerAccount } from "./Marketplace.ts"

/** A TON Connect `sendTransaction` request, as the wallet road answers it. */
export interface WalletTransaction {
  readonly validUntil: number
  readonly messages: ReadonlyArray<{ readonly address: string; readonly amount: string; readonly payload: string }>
}

/**
 * Sandbox mode only: wallets the server signs for, so a visitor without a TON wallet can walk the
 * wallet road on the emulated chain. A wallet is named by a random `name` the page carries; its key
 * is derived from the name and a secret of this process (never stored, gone with the process), so
 * the name alone signs nothing. Outside the sandbox every call fails.
 */
export class SandboxWallets extends Context.Service<
  SandboxWallets,
  {
    /** The named wallet's TON Connect account, funded from the faucet with `funds` when it holds less. */
    readonly open: (name: string, funds: Nanoton) => Effect.Effect<PayerAccount, BlockchainError>
    /** Signs the request as a wallet app would, broadcasts it and answers the signed message (base64 BOC). */
    readonly pay: (name: string, request: WalletTransaction) => Effect.Effect<string, BlockchainError>
  }
>()("core/ports/SandboxWallets") {}
