// `hot-wallet`, loaded only when it runs (it opens the chain of the configured mode).
import { formatTon } from "@resale/core/money/Nanoton.ts"
import { HotWalletStatus } from "@resale/core/wallet/HotWalletStatus.ts"
import { Effect } from "effect"
import { CliCommandError } from "../CliErrors.ts"
import { fields, output } from "../Output.ts"

export const HotWalletLayer = () => import("../CliHotWallet.ts").then((m) => m.CliHotWallet)

export const show = Effect.gen(function* () {
  const status = yield* HotWalletStatus
  const report = yield* status.report.pipe(
    Effect.mapError(
      (e) =>
        new CliCommandError({
          reason: "Unavailable",
          message: `The hot wallet cannot be looked up: ${e.reason}: ${e.message}`
        })
    )
  )
  if (!report.funded) {
    return output(
      { funded: false, fund_at: report.fundAt },
      `No wallet of the hot wallet's phrase holds TON yet. Send TON to\n${report.fundAt
        .map((a) => `  ${a.address} (${a.version})`)
        .join("\n")}\nfrom any wallet; its first payment deploys the contract.`
    )
  }
  return output(
    {
      funded: true,
      version: report.version,
      address: report.address,
      state: report.state,
      balance_ton: formatTon(report.balance)
    },
    fields([
      ["version", report.version],
      ["address", report.address],
      ["state", report.state === "uninit" ? "uninit (deployed by its first payment)" : report.state],
      ["balance", `${formatTon(report.balance)} TON`]
    ])
  )
})
