import { DirectPurchases } from "@resale/core/direct/DirectPurchases.ts"
import { FragmentMarketplace } from "@resale/marketplace/FragmentMarketplace.ts"
import { FragmentSandbox } from "@resale/marketplace/simulator/FragmentSandbox.ts"
import { TonPayerAccounts } from "@resale/ton/PayerAccount.ts"
import { SandboxBlockchain } from "@resale/ton/SandboxBlockchain.ts"
import { TonCenterBlockchain } from "@resale/ton/TonCenterBlockchain.ts"
import { type ConfigProblems, readSettings } from "@resale/config"
import { Effect, Layer } from "effect"
import { CliStore } from "./CliStore.ts"

/** Sandbox mode, decided by the one configuration (`@resale/config`), exactly as the server decides it. */
export const sandboxMode: Effect.Effect<boolean, ConfigProblems> = Effect.map(readSettings("cli"), (app) => app.sandbox)

/**
 * The chain and the marketplace of the configured mode. Sandbox: the emulator loaded from
 * `DATA_DIR/ton-sandbox.json` (read-only here: reconciling never sends) and a simulated Fragment,
 * which knows none of the server's invoices, so sandbox delivery checks stay open. Production:
 * toncenter (`TONCENTER_URL`, `TONCENTER_API_KEY`) and Fragment (`FRAGMENT_*`), as the server.
 */
export const CliChain = Layer.unwrap(Effect.map(sandboxMode, (sandbox) =>
  sandbox
    ? Layer.merge(SandboxBlockchain.layer, FragmentSandbox.layer())
    : Layer.merge(TonCenterBlockchain.layer, FragmentMarketplace.layer)
))

/** The direct purchase use case, as the server builds it, over the store and the chain of the mode. */
export const CliDirect = DirectPurchases.layer.pipe(
  Layer.provide(TonPayerAccounts.layer),
  Layer.provideMerge(CliChain),
  Layer.provideMerge(CliStore)
)
