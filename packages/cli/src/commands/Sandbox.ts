import type { Command } from "commander"
import { tonAmount } from "../Args.ts"
import { runCommand } from "../Runner.ts"
import type { CommonOptions } from "../Runner.ts"
import { withJson } from "./Common.ts"

const programs = () => import("./SandboxPrograms.ts")

export const registerSandbox = (program: Command): void => {
  const sandbox = program.command("sandbox").description("tools of sandbox mode (no real money)")

  withJson(
    sandbox
      .command("fund")
      .description(
        "send sandbox TON from the emulator's faucet to a wallet, to try the direct purchase endpoints by hand " +
          "(through the running server's faucet when one answers on PUBLIC_URL / PORT, with ADMIN_TOKEN; else into DATA_DIR)"
      )
      .argument("<address>", "the wallet address to fund")
      .argument("<ton>", "how much, in TON (e.g. 10 or 1.5)", tonAmount)
  ).action((address: string, amount: string, options: CommonOptions) =>
    programs().then((p) => runCommand(() => p.SandboxLayer, p.fund(address, amount), options))
  )
}
