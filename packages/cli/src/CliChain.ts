import { DirectPurchaseHistory } from "@resale/core/direct/DirectPurchaseHistory.ts"
import { DirectPurchases } from "@resale/core/direct/DirectPurchases.ts"
import { TonPayerAccounts } from "@resale/ton/PayerAccount.ts"
import { AppConfig } from "@resale/config"
import { World } from "@resale/world"
import { Layer } from "effect"
import { CliStore } from "./CliStore.ts"

/**
 * The chain and the marketplace of the configured mode, as every root gets them (`@resale/world`):
 * in sandbox mode the sandbox world of DATA_DIR (joined when the server runs, so its invoices are
 * known; owned for the command otherwise), in production toncenter and Fragment.
 */
export const CliChain = World.chain.pipe(Layer.provide(AppConfig.layer("cli")))

/** The direct purchase use case, as the server builds it, over the store and the chain of the mode. */
export const CliDirect = Layer.mergeAll(DirectPurchases.layer, DirectPurchaseHistory.layer).pipe(
  Layer.provide(TonPayerAccounts.layer),
  Layer.provideMerge(CliChain),
  Layer.provideMerge(CliStore)
)
