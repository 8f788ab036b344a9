/**
 * What operators need to know of the hot wallet before and while it pays: its contract, address,
 * state on chain and balance, or, while no wallet of the phrase holds coins, where to send TON (the
 * configured contract's address: a Highload Wallet V3 is shown by no wallet app, so this is where its
 * operator learns it).
 */
import { Context, Effect, Layer } from "effect"
import { Nanoton } from "../money/Nanoton.ts"
import { Blockchain, type BlockchainError, type WalletVersion } from "../ports/Blockchain.ts"
import { HotWallet } from "../ports/HotWallet.ts"

export type HotWalletReport =
  | {
      readonly funded: true
      readonly version: WalletVersion
      readonly address: string
      /** `uninit`: funded, deployed by its first payment. */
      readonly state: "active" | "uninit" | "frozen"
      readonly balance: Nanoton
      /** Chain time of the block the balance was read from (unix seconds), when the node said. */
      readonly syncTime?: number
    }
  | {
      readonly funded: false
      readonly fundAt: ReadonlyArray<{ readonly version: WalletVersion; readonly address: string }>
    }

export class HotWalletStatus extends Context.Service<
  HotWalletStatus,
  {
    readonly report: Effect.Effect<HotWalletReport, BlockchainError>
  }
>()("core/wallet/HotWalletStatus") {
  /** Needs HotWallet and Blockchain. */
  static readonly layer = Layer.effect(
    HotWalletStatus,
    Effect.gen(function* () {
      const hot = yield* HotWallet
      const chain = yield* Blockchain
      const report = hot.wallet.pipe(
        Effect.flatMap((wallet) =>
          Effect.map(
            chain.accountState(wallet.address),
            (state): HotWalletReport => ({
              funded: true,
              version: wallet.version,
              address: wallet.address,
              state: state.status,
              balance: Nanoton.make(state.balance),
              ...(state.syncTime === undefined ? {} : { syncTime: state.syncTime })
            })
          )
        ),
        Effect.catchIf(
          (error) => error.reason === "WalletNotFound",
          (error) => Effect.succeed<HotWalletReport>({ funded: false, fundAt: error.addresses ?? [] })
        )
      )
      return HotWalletStatus.of({ report })
    })
  )
}
