import { Context, type Effect } from "effect"
import type { PayerAccount } from "./Marketplace.ts"

/**
 * The wallet road's check of a wallet as a wallet app described it (TON Connect's `Account`). Reading
 * a StateInit BOC needs the TON libraries, so an adapter next to the Blockchain adapter provides it.
 */
export class WalletAccounts extends Context.Service<
  WalletAccounts,
  {
    /**
     * The description normalised (raw address and key in lower case) when its StateInit makes exactly
     * its address, else the problem in words.
     */
    readonly verify: (account: PayerAccount) => Effect.Effect<PayerAccount, string>
    /** Any address form as raw `0:<hex>` in lower case; undefined when it is no address. */
    readonly rawAddress: (address: string) => Effect.Effect<string | undefined>
    /** The wallet (raw, lower case) a signed external message (base64 BOC) is for; undefined when it is none. */
    readonly signer: (boc: string) => Effect.Effect<string | undefined>
  }
>()("core/ports/WalletAccounts") {}
