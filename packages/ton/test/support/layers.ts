/**
 * The two environments the shared scenarios run in. Both expose the port under test (`Blockchain`),
 * the sandbox faucet and emulator (`SandboxBlockchain`) and a queue of faults for the next sends.
 */
import { Blockchain, BlockchainError } from "@resale/core/ports/Blockchain.ts"
import { Context, Effect, Layer, Redacted } from "effect"
import type { ChainClient } from "../../src/ChainClient.ts"
import { SandboxBlockchain, sandboxClient } from "../../src/SandboxBlockchain.ts"
import { makeTonBlockchain, type TonBlockchainOptions } from "../../src/TonBlockchain.ts"
import { makeTonCenterBlockchain } from "../../src/TonCenterBlockchain.ts"
import { type SendFault, startToncenterServer, type ToncenterServer } from "./ToncenterServer.ts"

/** Faults for the next sendBoc calls: the answer is lost after or before the node applied it. */
export class SendFaults extends Context.Service<SendFaults, Array<SendFault>>()("ton/test/SendFaults") {}

export class Loopback extends Context.Service<Loopback, ToncenterServer>()("ton/test/Loopback") {}

export const testOptions: TonBlockchainOptions = { expiryMarginSeconds: 10 }

const lost = new BlockchainError({ reason: "NetworkError", message: "connection lost (test fault)" })

const withFaults = (client: ChainClient, faults: Array<SendFault>): ChainClient => ({
  ...client,
  sendBoc: (boc) =>
    Effect.suspend(() => {
      const fault = faults.shift()
      if (fault === "lostBeforeApply") return Effect.fail(lost)
      if (fault === "lostAfterApply") return Effect.andThen(client.sendBoc(boc), Effect.fail(lost))
      return client.sendBoc(boc)
    })
})

/** The in-process emulator adapter, with fault injection between the port and the emulator. */
export const SandboxEnv = Layer.effectContext(
  Effect.gen(function* () {
    const sandbox = yield* SandboxBlockchain
    const faults: Array<SendFault> = []
    const port = makeTonBlockchain(withFaults(sandboxClient(sandbox.emulator, Effect.void), faults), testOptions)
    return Context.make(Blockchain, port).pipe(Context.add(SandboxBlockchain, sandbox), Context.add(SendFaults, faults))
  })
).pipe(Layer.provide(SandboxBlockchain.layerWith()))

export const TEST_API_KEY = "loopback-test-key"

/** The toncenter adapter (real TonClient) against a loopback toncenter over the emulator. */
export const ToncenterEnv = Layer.effectContext(
  Effect.gen(function* () {
    const sandbox = yield* SandboxBlockchain
    const server = yield* startToncenterServer(sandbox)
    const port = makeTonCenterBlockchain({
      endpoint: server.url,
      network: "mainnet",
      apiKey: Redacted.make(TEST_API_KEY),
      ...testOptions
    })
    return Context.make(Blockchain, port).pipe(
      Context.add(SandboxBlockchain, sandbox),
      Context.add(SendFaults, server.sendFaults),
      Context.add(Loopback, server)
    )
  })
).pipe(Layer.provide(SandboxBlockchain.layerWith()))
