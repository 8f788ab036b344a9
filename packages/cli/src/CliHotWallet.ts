import { AppConfig, readSettings } from "@resale/config"
import { HotWalletStatus } from "@resale/core/wallet/HotWalletStatus.ts"
import { TonHotWallet } from "@resale/ton/TonHotWallet.ts"
import { Effect, Layer, Option } from "effect"
import { CliChain } from "./CliChain.ts"
import { CliCommandError } from "./CliErrors.ts"

/** The hot wallet as the worker resolves it (same phrase and contract), over the chain of the configured mode. */
export const CliHotWallet = Layer.unwrap(
  Effect.gen(function* () {
    const app = yield* readSettings("cli")
    if (!app.sandbox && Option.isNone(app.hotWalletMnemonic)) {
      return yield* new CliCommandError({
        reason: "Unavailable",
        message: "HOT_WALLET_MNEMONIC is not set: the worker needs it outside sandbox mode"
      })
    }
    return HotWalletStatus.layer.pipe(
      Layer.provide(
        TonHotWallet.layerWith({ phrase: app.hotWalletMnemonic, version: app.hotWalletVersion, sandbox: app.sandbox })
      ),
      Layer.provideMerge(CliChain)
    )
  })
).pipe(Layer.provide(AppConfig.layer("cli")))
