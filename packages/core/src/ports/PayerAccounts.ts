import { Context, type Effect } from "effect"
import type { Wallet } from "./Blockchain.ts"
import type { PayerAccount } from "./Marketplace.ts"

/**
 * The paying wallet as TON Connect describes it (raw address, public key, StateInit), which the
 * marketplace's link call requires. Building a StateInit BOC needs the TON libraries, so an adapter
 * next to the Blockchain adapter provides it; the key pair never leaves the `Wallet`.
 */
export class PayerAccounts extends Context.Service<
  PayerAccounts,
  {
    readonly describe: (wallet: Wallet) => Effect.Effect<PayerAccount>
  }
>()("core/ports/PayerAccounts") {}
