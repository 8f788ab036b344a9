/**
 * The direct surface as a user meets it, on loopback: the real routes and use case served by node:http,
 * the real TON VM (@ton/sandbox, state persisted to a temporary data dir), the Fragment simulator
 * speaking Fragment's wire format (delivering only once the payment is on that chain), real PostgreSQL.
 * Between the port and the emulator sits a switchable network fault (answers lost, node down), and
 * every log line and span the server produces is captured for the secret scans.
 */
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { DirectPurchases } from "@resale/core/direct/DirectPurchases.ts"
import { WalletPurchases } from "@resale/core/direct/WalletPurchases.ts"
import type { Marketplace } from "@resale/core/ports/Marketplace.ts"
import { PgWalletQuotes } from "@resale/store/PgWalletQuotes.ts"
import { TonWalletAccounts } from "@resale/ton/PayerAccount.ts"
import { DirectSettings, type DirectSettingsShape } from "@resale/core/direct/DirectSettings.ts"
import { Blockchain, BlockchainError } from "@resale/core/ports/Blockchain.ts"
import { FragmentSandbox } from "@resale/marketplace/simulator/FragmentSandbox.ts"
import type { FragmentSimulatorHandle } from "@resale/marketplace/simulator/FragmentSimulator.ts"
import { IsolatedPostgres } from "@resale/store/testing/index.ts"
import type { ChainClient } from "@resale/ton/ChainClient.ts"
import { SandboxBlockchain, sandboxClient } from "@resale/ton/SandboxBlockchain.ts"
import { makeTonBlockchain } from "@resale/ton/TonBlockchain.ts"
import type { Blockchain as Emulator } from "@ton/sandbox"
import { Cause, Context, type Duration, Effect, Exit, Layer, Logger, References, Tracer } from "effect"
import { HttpServer } from "effect/http"
import { SqlClient } from "effect/sql/SqlClient"
import { mkdtemp, rm } from "node:fs/promises"
import { createServer } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { DirectHttpConfig, type DirectHttpSettings } from "../../../src/direct/DirectConfig.ts"
import { DirectRouteHandlers, DirectServices } from "../../../src/direct/DirectRoutes.ts"
import { serveLean } from "../../../src/server/LeanServe.ts"
import { sandboxMarketplace } from "../../../src/direct/DirectSandbox.ts"
import type { MagicOptions } from "@resale/marketplace/simulator/SimulatorMagic.ts"
import type { SimulatorPrices } from "@resale/marketplace/simulator/SimulatorPricing.ts"

/** Switches between the Blockchain port and the emulator. */
export interface ChainFaults {
  /**
   * Per coming sendBoc: the node applies it but the answer is lost (and then, with `ThenDown`, the node
   * becomes unreachable), or it is lost before the node.
   */
  readonly sends: Array<"lostAfterApply" | "lostAfterApplyThenDown" | "lostBeforeApply" | "lostBeforeApplyThenDown">
  /** While true every call fails as if the node were unreachable. */
  down: boolean
  /** While set, every sendBoc waits for it (to hold a payment in flight); `waiting` counts who waits. */
  gate: Promise<void> | undefined
  waiting: number
}

/** Holds every send until the returned `open` is called. */
export const closeGate = (faults: ChainFaults) => {
  let open: () => void = () => {}
  faults.gate = new Promise<void>((resolve) => {
    open = () => {
      faults.gate = undefined
      resolve()
    }
  })
  return open
}

export interface DirectEnv {
  readonly url: string
  readonly emulator: Emulator
  readonly sandbox: SandboxBlockchain["Service"]
  readonly fragment: FragmentSimulatorHandle
  readonly faults: ChainFaults
  /** Every log line (structured, with annotations and causes) and every span, as text. */
  readonly logs: Array<string>
  readonly spans: Array<string>
  readonly dataDir: string
  readonly service: DirectPurchases["Service"]
  /** The wallet road's use case the server runs. */
  readonly wallets: WalletPurchases["Service"]
  /** A new instance of it over the same database and ports, as a restarted process would have. */
  readonly restartedWallets: Effect.Effect<WalletPurchases["Service"]>
  /** The Blockchain port the service uses (with the faults above). */
  readonly chain: Blockchain["Service"]
  readonly sql: SqlClient
}

export class DirectTestEnv extends Context.Service<DirectTestEnv, DirectEnv>()("http/test/direct/DirectTestEnv") {}

const unreachable = () => new BlockchainError({ reason: "NetworkError", message: "node unreachable (test fault)" })

const faulty = (client: ChainClient, faults: ChainFaults): ChainClient => ({
  ...client,
  account: (address) => Effect.suspend(() => (faults.down ? Effect.fail(unreachable()) : client.account(address))),
  transactions: (address, page) =>
    Effect.suspend(() => (faults.down ? Effect.fail(unreachable()) : client.transactions(address, page))),
  sendBoc: (boc) =>
    Effect.gen(function* () {
      const gate = faults.gate
      if (gate !== undefined) {
        faults.waiting++
        yield* Effect.promise(() => gate)
        faults.waiting--
      }
      if (faults.down) return yield* unreachable()
      const fault = faults.sends.shift()
      if (fault === "lostBeforeApply" || fault === "lostBeforeApplyThenDown") {
        faults.down = fault === "lostBeforeApplyThenDown"
        return yield* unreachable()
      }
      yield* client.sendBoc(boc)
      if (fault === "lostAfterApply" || fault === "lostAfterApplyThenDown") {
        faults.down = fault === "lostAfterApplyThenDown"
        return yield* unreachable()
      }
    })
})

const safeJson = (value: unknown) =>
  JSON.stringify(value, (_k, v) =>
    typeof v === "bigint" ? v.toString() : v instanceof Map ? Object.fromEntries(v) : v
  )

const captureLogger = (lines: Array<string>) =>
  Logger.map(Logger.formatStructured, (entry) => {
    lines.push(safeJson(entry))
  })

const captureTracer = (spans: Array<string>) =>
  Tracer.make({
    span(options) {
      const span = new Tracer.NativeSpan(options)
      const end = span.end.bind(span)
      span.end = (endTime, exit) => {
        end(endTime, exit)
        spans.push(
          safeJson({
            name: span.name,
            attributes: span.attributes,
            events: span.events,
            failure: Exit.isFailure(exit) ? Cause.pretty(exit.cause) : null
          })
        )
      }
      return span
    }
  })

export interface DirectTestOptions {
  readonly settings?: Partial<DirectSettingsShape>
  readonly http?: Partial<DirectHttpSettings>
  /** Per HTTP request of the Fragment adapter (default 1 second, so timeouts are quick to provoke). */
  readonly fragmentTimeout?: Duration.Input
  /** How long one purchase may hold the Fragment session, and how long a quote waits for it. */
  readonly fragmentSessions?: { readonly hold?: Duration.Input; readonly wait?: Duration.Input }
  /** The sandbox's test recipients (docs/sandbox.md, "Test recipients"); off unless given. */
  readonly fragmentMagic?: MagicOptions
  /** What the simulated Fragment charges (default: its usual prices). */
  readonly fragmentPrices?: SimulatorPrices
  /** Seconds the simulated Fragment's transactions stay valid (default its 900). */
  readonly fragmentValidFor?: number
}

export const testSettings: DirectSettingsShape = {
  confirmWithin: "3 seconds",
  deliveryWithin: "2 seconds",
  pollEvery: "50 millis",
  staleAfter: "10 minutes",
  feeReserve: 10_000_000n,
  answerWithin: "20 seconds",
  replayWithin: "15 minutes",
  reuseFinishedIds: true
}

export const makeDirectTestEnv = (options: DirectTestOptions = {}): Layer.Layer<DirectTestEnv, unknown> => {
  const logs: Array<string> = []
  const spans: Array<string> = []
  const faults: ChainFaults = { sends: [], down: false, gate: undefined, waiting: 0 }
  return Layer.unwrap(
    Effect.gen(function* () {
      const dataDir = yield* Effect.acquireRelease(
        Effect.promise(() => mkdtemp(join(tmpdir(), "direct-test-"))),
        (dir) => Effect.promise(() => rm(dir, { recursive: true, force: true }))
      )
      // A short message lifetime so "never landed" turns into "expired" within a test.
      const Chain = Layer.effectContext(
        Effect.gen(function* () {
          const sandbox = yield* SandboxBlockchain
          const port = makeTonBlockchain(
            faulty(sandboxClient(sandbox.emulator, sandbox.persist, sandbox.blocks), faults),
            {
              ttlSeconds: 4,
              expiryMarginSeconds: 1
            }
          )
          return Context.make(Blockchain, port)
        })
      ).pipe(Layer.provideMerge(SandboxBlockchain.layerWith({ dataDir })))
      const simulator = {
        ...(options.fragmentMagic === undefined ? {} : { magic: options.fragmentMagic }),
        ...(options.fragmentPrices === undefined ? {} : { prices: options.fragmentPrices }),
        ...(options.fragmentValidFor === undefined ? {} : { validForSeconds: options.fragmentValidFor })
      }
      const Market = sandboxMarketplace(simulator, {
        timeout: options.fragmentTimeout ?? "1 second",
        ...(options.fragmentSessions?.hold === undefined ? {} : { sessionHold: options.fragmentSessions.hold }),
        ...(options.fragmentSessions?.wait === undefined ? {} : { sessionWait: options.fragmentSessions.wait })
      })
      const Ports = Layer.mergeAll(
        Market,
        Layer.succeed(DirectSettings, { ...testSettings, ...options.settings })
      ).pipe(Layer.provideMerge(Chain), Layer.provideMerge(IsolatedPostgres.layer))
      const Services = DirectServices.pipe(Layer.provideMerge(Ports))
      const Routes = DirectRouteHandlers.pipe(
        Layer.provide(DirectHttpConfig.layerTest({ rateLimit: { perMinute: 10_000, burst: 10_000 }, ...options.http }))
      )
      const Served = serveLean(Routes, { logRequests: false }).pipe(
        Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" }))
      )
      const Env = Layer.effect(
        DirectTestEnv,
        Effect.gen(function* () {
          const server = yield* HttpServer.HttpServer
          if (server.address._tag === "UnixPathAddress") return yield* Effect.die("not a TCP server")
          const sandbox = yield* SandboxBlockchain
          return DirectTestEnv.of({
            url: `http://127.0.0.1:${server.address.port}`,
            emulator: sandbox.emulator,
            sandbox,
            fragment: yield* FragmentSandbox,
            faults,
            logs,
            spans,
            dataDir,
            service: yield* DirectPurchases,
            wallets: yield* WalletPurchases,
            restartedWallets: Layer.build(
              WalletPurchases.layer.pipe(Layer.provide([PgWalletQuotes.layer, TonWalletAccounts]))
            ).pipe(
              Effect.map(Context.get(WalletPurchases)),
              Effect.provide(yield* Effect.context<Blockchain | Marketplace | SqlClient>()),
              Effect.scoped
            ),
            chain: yield* Blockchain,
            sql: yield* SqlClient
          })
        })
      ).pipe(Layer.provide(Served), Layer.provideMerge(Services))
      return Env.pipe(
        Layer.provide(Logger.layer([captureLogger(logs)])),
        Layer.provide(Layer.succeed(References.MinimumLogLevel, "All")),
        Layer.provide(Layer.succeed(Tracer.Tracer, captureTracer(spans)))
      )
    })
  ) as Layer.Layer<DirectTestEnv, unknown>
}
