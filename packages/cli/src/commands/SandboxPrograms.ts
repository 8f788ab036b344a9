// `sandbox fund`, loaded only when it runs (the offline path starts the TON emulator).
import { formatTon, nanotonFromDecimal } from "@resale/core/money/Nanoton.ts"
import { SandboxBlockchain } from "@resale/ton/SandboxBlockchain.ts"
import { SandboxFaucet } from "@resale/ton/SandboxFaucet.ts"
import { makeSandboxFunding } from "@resale/ton/SandboxFunding.ts"
import { readSettings } from "@resale/config"
import { worldSocketOf } from "@resale/world/SharedSandbox.ts"
import { connect } from "node:net"
import { Effect, Layer, Option } from "effect"
import { CliCommandError } from "../CliErrors.ts"
import { output } from "../Output.ts"
import { type Funded, fundThroughServer, runningServer } from "./SandboxFaucetClient.ts"

/** Nothing to open up front: the program decides between the server and the state file. */
export const SandboxLayer = Promise.resolve(Layer.empty)

/**
 * No server runs: the emulator's state file `DATA_DIR/ton-sandbox.json` is loaded, funded and
 * written back; the server loads it at its next start.
 */
const fundOffline = (address: string, amount: string) =>
  Effect.gen(function* () {
    const { dataDir, sandbox } = yield* readSettings("cli")
    if (!sandbox) {
      return yield* new CliCommandError({
        reason: "Unavailable",
        message:
          "sandbox fund works only in sandbox mode (SANDBOX=true, or no TELEGRAM_BOT_TOKEN / DATABASE_URL): " +
          "on mainnet and testnet nobody can make TON"
      })
    }
    if (yield* worldOwned(dataDir)) {
      return yield* new CliCommandError({
        reason: "Unavailable",
        message:
          "a running process owns DATA_DIR's sandbox chain but its server did not answer at PUBLIC_URL or on PORT: " +
          "fund through that server (set PORT or PUBLIC_URL to reach it), or stop it first"
      })
    }
    return yield* Effect.gen(function* () {
      const funding = yield* makeSandboxFunding
      const to = yield* funding.parseAddress(address)
      const nano = nanotonFromDecimal(amount)
      const balance = yield* funding.fund(to, nano)
      return {
        address: to,
        funded: formatTon(nano),
        balance: formatTon(balance),
        network: funding.network
      } satisfies Funded
    }).pipe(Effect.provide(SandboxFaucet.layerLocal.pipe(Layer.provideMerge(SandboxBlockchain.layerWith({ dataDir })))))
  })

/** Whether a live process serves the sandbox world of `dataDir` (its socket accepts a connection). */
const worldOwned = (dataDir: string) =>
  Effect.promise(
    () =>
      new Promise<boolean>((resolve) => {
        const socket = connect(worldSocketOf(dataDir))
        const done = (owned: boolean) => {
          socket.destroy()
          resolve(owned)
        }
        socket.setTimeout(2000, () => done(false))
        socket.once("connect", () => done(true))
        socket.once("error", () => done(false))
      })
  )

/** Through the running server's faucet when one answers (it owns the chain), else into the state file. */
export const fund = (address: string, amount: string) =>
  Effect.gen(function* () {
    const server = yield* runningServer
    const funded = Option.isSome(server)
      ? yield* fundThroughServer(server.value, address, amount)
      : yield* fundOffline(address, amount)
    const where = Option.isSome(server)
      ? `through the server at ${server.value.base}; it is usable right away.`
      : "into DATA_DIR's sandbox chain. Start (or restart) the server to use it."
    return output(
      funded,
      `Sent ${funded.funded} sandbox TON to ${funded.address}; its balance is now ${funded.balance} TON.\nFunded ${where}`
    )
  })
