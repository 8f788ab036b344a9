import type { Command } from "commander"
import { runCommand } from "../Runner.ts"
import type { CommonOptions } from "../Runner.ts"
import { withJson } from "./Common.ts"

const programs = () => import("./HotWalletPrograms.ts")

export const registerHotWallet = (program: Command): void => {
  withJson(
    program
      .command("hot-wallet")
      .description(
        "the hot wallet that pays Fragment (HOT_WALLET_MNEMONIC, HOT_WALLET_VERSION): its contract, address, state and " +
          "balance, or where to send TON while it holds none (a Highload Wallet V3 is shown by no wallet app)"
      )
  ).action((options: CommonOptions) => programs().then((p) => runCommand(p.HotWalletLayer, p.show, options)))
}
