// `sandbox fund`, loaded only when it runs (it starts the TON emulator).
import { Blockchain } from "@resale/core/ports/Blockchain.ts"
import { formatTon, nanotonFromDecimal } from "@resale/core/money/Nanoton.ts"
import { SandboxBlockchain } from "@resale/ton/SandboxBlockchain.ts"
import { Config, Effect, Layer } from "effect"
import { sandboxMode } from "../CliChain.ts"
import { CliCommandError } from "../CliErrors.ts"
import { serverAnswers, serverPort } from "../EmbeddedGuard.ts"
import { output } from "../Output.ts"

/**
 * The emulator's state lives in `DATA_DIR/ton-sandbox.json` and the running server keeps its own copy
 * in memory, writing it back after every payment. Funding the file while the server runs would be
 * overwritten, so this refuses then; the http package exposes no faucet endpoint to go through.
 */
const checked = Effect.gen(function*() {
  if (!(yield* sandboxMode)) {
    return yield* new CliCommandError({
      reason: "Unavailable",
      message: "sandbox fund works only in sandbox mode (SANDBOX=true, or no TELEGRAM_BOT_TOKEN / DATABASE_URL): " +
        "on mainnet and testnet nobody can make TON"
    })
  }
  const port = yield* serverPort
  if (yield* serverAnswers(port)) {
    return yield* new CliCommandError({
      reason: "Unavailable",
      message: `a resale server answers on port ${port} and owns the sandbox chain in memory; it has no faucet endpoint, ` +
        "so stop it, run `resale sandbox fund` again, then start it: it loads the funded chain from DATA_DIR"
    })
  }
  const dataDir = yield* Config.String("DATA_DIR").pipe(Config.withDefault(".data"))
  return SandboxBlockchain.layerWith({ dataDir })
})

/** The sandbox chain of `DATA_DIR`, after the checks above. */
export const SandboxChain = Promise.resolve(Layer.unwrap(checked))

export const fund = (address: string, amount: string) =>
  Effect.gen(function*() {
    const faucet = yield* SandboxBlockchain
    const chain = yield* Blockchain
    const to = yield* chain.parseAddress(address)
    const nano = nanotonFromDecimal(amount)
    yield* faucet.fund(to, nano)
    const balance = yield* chain.balance(to)
    return output(
      { address: to, funded: formatTon(nano), balance: formatTon(balance), network: chain.network },
      `Sent ${formatTon(nano)} sandbox TON to ${to}; its balance is now ${formatTon(balance)} TON.\n` +
        "Start (or restart) the server to use it: the sandbox chain is kept in DATA_DIR."
    )
  })
