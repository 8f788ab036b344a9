import { PayerAccounts } from "@resale/core/ports/PayerAccounts.ts"
import { Blockchain } from "@resale/core/ports/Blockchain.ts"
import { networkGlobalIdOf, payerAccount } from "@resale/ton/PayerAccount.ts"
import { Effect, Layer } from "effect"

/** PayerAccounts with the TON libraries, for the network the Blockchain adapter runs on. */
export const TonPayerAccounts = {
  layer: Layer.effect(
    PayerAccounts,
    Effect.gen(function*() {
      const chain = yield* Blockchain
      const id = networkGlobalIdOf(chain.network)
      return PayerAccounts.of({ describe: (wallet) => Effect.sync(() => payerAccount(wallet, id)) })
    })
  )
} as const
