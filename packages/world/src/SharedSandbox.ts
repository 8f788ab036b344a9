/**
 * One sandbox world per data directory, shared by every process that uses it (`npm start` with
 * `WORKER=false`, `npm run worker`, the CLI). The first process owns it: the TON emulator (state in
 * `DATA_DIR/ton-sandbox.json`) served as a toncenter endpoint and the Fragment simulator, both on
 * loopback, and it answers "where is the world" on a Unix socket in the data directory. The others
 * use the production adapters (toncenter client, Fragment adapter) pointed at those addresses, so a
 * worker restarted mid-order finds the same chain and the same Fragment invoices.
 * While the owner runs, the socket accepts connections; a socket left by a killed owner refuses
 * them, and the next process to start takes the world over.
 */
import { Blockchain } from "@resale/core/ports/Blockchain.ts"
import { Marketplace } from "@resale/core/ports/Marketplace.ts"
import { makeFragmentMarketplace } from "@resale/marketplace/FragmentMarketplace.ts"
import { FragmentSandbox } from "@resale/marketplace/simulator/FragmentSandbox.ts"
import type { MagicOptions } from "@resale/marketplace/simulator/SimulatorMagic.ts"
import { OutboundHttp } from "@resale/outbound"
import { SandboxBlockchain } from "@resale/ton/SandboxBlockchain.ts"
import { SandboxFaucet } from "@resale/ton/SandboxFaucet.ts"
import { paymentSeenOn } from "@resale/ton/SandboxPayments.ts"
import { serveSandboxToncenter } from "@resale/ton/SandboxToncenter.ts"
import { makeTonBlockchain } from "@resale/ton/TonBlockchain.ts"
import { tonCenterClient } from "@resale/ton/TonCenterBlockchain.ts"
import { Context, type Duration, Effect, Layer, Option, Redacted, Schedule, Schema } from "effect"
import { createHash } from "node:crypto"
import { mkdirSync } from "node:fs"
import { chmod, unlink } from "node:fs/promises"
import { connect, createServer } from "node:net"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"

/** What the owner tells the other processes. The cookies are the simulator's sandbox session. */
const Descriptor = Schema.Struct({
  toncenter: Schema.String,
  fragment: Schema.String,
  cookies: Schema.String,
  /** the simulator's further sessions (SANDBOX_FRAGMENT_SESSIONS), by label */
  more: Schema.optional(Schema.Array(Schema.Struct({ label: Schema.String, cookies: Schema.String }))),
  pid: Schema.Number
})
type Descriptor = typeof Descriptor.Type

const SOCKET = "sandbox-world.sock"
/** The Fragment simulator's sessions and invoices, kept as they change (`SimulatorStore.ts`). */
const FRAGMENT_STATE = "fragment-sandbox.json"

/** The socket of `dataDir`'s world; Unix socket paths are short, so a long one moves to the temp dir. */
export const worldSocketOf = (dataDir: string): string => {
  const path = resolve(dataDir, SOCKET)
  if (path.length < 100) return path
  return join(tmpdir(), `resale-world-${createHash("sha256").update(path).digest("hex").slice(0, 16)}.sock`)
}

/** The owner's descriptor, or None when nobody owns the world (no socket, or a dead owner's). */
const decodeDescriptor = Schema.decodeUnknownOption(Schema.fromJsonString(Descriptor))

const discover = (socket: string): Effect.Effect<Option.Option<Descriptor>> =>
  Effect.callback<Option.Option<string>>((resume) => {
    let text = ""
    const connection = connect(socket)
    connection.setEncoding("utf8")
    connection.on("data", (chunk) => (text += chunk))
    connection.on("end", () => resume(Effect.succeed(Option.some(text))))
    connection.on("error", () => resume(Effect.succeed(Option.none())))
    return Effect.sync(() => connection.destroy())
  }).pipe(
    Effect.map(Option.flatMap((text) => decodeDescriptor(text.trim()))),
    Effect.timeoutOrElse({ duration: "5 seconds", orElse: () => Effect.succeedNone })
  )

/** Listens on the socket for as long as the scope lives; false when another live process owns it. */
const claim = (socket: string, descriptor: Descriptor) =>
  Effect.gen(function* () {
    const answer = `${JSON.stringify(descriptor)}\n`
    // A process killed while asking leaves a closed socket: writing to it (EPIPE) must not end the owner.
    const server = createServer((connection) => connection.on("error", () => undefined).end(answer))
    const listen = Effect.callback<boolean>((resume) => {
      server.once("error", () => resume(Effect.succeed(false)))
      server.listen(socket, () => resume(Effect.succeed(true)))
    })
    let listening = yield* listen
    if (!listening && Option.isNone(yield* discover(socket))) {
      // A killed owner's socket: nobody answers it, so it is taken over.
      yield* Effect.promise(() => unlink(socket).catch(() => undefined))
      listening = yield* listen
    }
    if (!listening) return false
    yield* Effect.promise(() => chmod(socket, 0o600).catch(() => undefined))
    yield* Effect.addFinalizer(() => Effect.callback<void>((resume) => void server.close(() => resume(Effect.void))))
    return true
  })

/** The world as its owner: the emulator, its toncenter endpoint and the Fragment simulator in this process. */
/** Adapter timings of the sandbox world's Fragment (the session rules are Fragment's, sandbox or not). */
export interface SandboxMarketTiming {
  readonly sessionHold: Duration.Duration
  readonly sessionWait: Duration.Duration
  /** The owner's chain: time between two blocks (zero: messages run at once). */
  readonly blockInterval?: Duration.Duration
  /** Cookie sessions the owner's Fragment simulator offers (default 1). */
  readonly fragmentSessions?: number
  /** The test recipients' delays (`SANDBOX_SLOW_SEARCH`, `SANDBOX_LATE_DELIVERY`); unset: the simulator's defaults. */
  readonly magic?: MagicOptions
}

const host = (dataDir: string, timing: SandboxMarketTiming) =>
  Effect.gen(function* () {
    const chain = yield* Layer.build(
      SandboxBlockchain.layerWith({
        dataDir,
        ...(timing.blockInterval === undefined ? {} : { blockInterval: timing.blockInterval })
      })
    )
    const sandbox = Context.get(chain, SandboxBlockchain)
    const toncenter = yield* serveSandboxToncenter(sandbox)
    // magic: the sandbox's test recipients (docs/sandbox.md, "Test recipients"); the chain asks
    // Fragment which payments to lose
    const fragment = yield* Layer.build(
      FragmentSandbox.layer(
        {
          paymentSeen: paymentSeenOn(sandbox.emulator),
          magic: timing.magic ?? true,
          sessions: timing.fragmentSessions ?? 1,
          // its sessions and open invoices outlive this process: whoever takes the world over continues them
          stateFile: join(dataDir, FRAGMENT_STATE)
        },
        { sessionHold: timing.sessionHold, sessionWait: timing.sessionWait }
      )
    )
    const simulator = Context.get(fragment, FragmentSandbox)
    sandbox.dropPayments(simulator.control.dropsPayment)
    const context = Context.merge(chain, fragment).pipe(
      Context.add(SandboxFaucet, SandboxFaucet.of({ fund: sandbox.fund }))
    )
    const descriptor: Descriptor = {
      toncenter: toncenter.url,
      fragment: simulator.url,
      cookies: simulator.cookies,
      more: simulator.moreSessions.map((s) => ({ label: s.label, cookies: s.cookies })),
      pid: process.pid
    }
    return { context, descriptor }
  })

/** The world as a guest: the production adapters on the owner's loopback addresses. */
const join_ = (descriptor: Descriptor, timing: SandboxMarketTiming) =>
  Effect.gen(function* () {
    const client = tonCenterClient({ endpoint: descriptor.toncenter, timeout: 15_000 }, "mainnet", "100 millis")
    const chain = makeTonBlockchain({ ...client, network: "sandbox" })
    const marketplace = yield* makeFragmentMarketplace({
      baseUrl: descriptor.fragment,
      cookies: Redacted.make(descriptor.cookies),
      moreSessions: (descriptor.more ?? []).map((s) => ({ label: s.label, cookies: Redacted.make(s.cookies) })),
      timeout: "5 seconds",
      rateLimitDelay: "10 millis",
      sessionHold: timing.sessionHold,
      sessionWait: timing.sessionWait
    })
    const faucet = yield* Layer.build(SandboxFaucet.layerRemote(descriptor.toncenter).pipe(Layer.provide(OutboundHttp)))
    yield* Effect.logInfo(
      `sandbox world of process ${descriptor.pid} joined (chain ${descriptor.toncenter}, Fragment ${descriptor.fragment})`
    )
    return Context.make(Blockchain, chain).pipe(Context.add(Marketplace, marketplace), Context.merge(faucet))
  })

type WorldContext = Context.Context<Blockchain | Marketplace | SandboxFaucet>

interface Reached {
  readonly context: WorldContext
  /** Who owns the world now, and where its chain is (a new owner has a new address). */
  readonly owner: number
  readonly toncenter: string
}

/** Owns the world if nobody does, else joins it. */
const ownOrJoin = (dataDir: string, socket: string, timing: SandboxMarketTiming) =>
  Effect.gen(function* () {
    const existing = yield* discover(socket)
    if (Option.isSome(existing))
      return {
        context: yield* join_(existing.value, timing),
        owner: existing.value.pid,
        toncenter: existing.value.toncenter
      }
    const owned = yield* host(dataDir, timing)
    if (yield* claim(socket, owned.descriptor)) {
      yield* Effect.logInfo(
        `sandbox world owned by this process (chain ${owned.descriptor.toncenter}, Fragment ${owned.descriptor.fragment})`
      )
      return { context: owned.context as WorldContext, owner: process.pid, toncenter: owned.descriptor.toncenter }
    }
    // Another process claimed it while this one was starting its own: use theirs.
    const other = yield* discover(socket)
    if (Option.isSome(other))
      return { context: yield* join_(other.value, timing), owner: other.value.pid, toncenter: other.value.toncenter }
    return yield* Effect.die(new Error(`the sandbox world socket ${socket} can be neither claimed nor joined`))
  })

/** Services that always call the world's current implementation (it changes when a gone owner is replaced). */
const delegating = (current: { reached: Reached }): WorldContext => {
  const forward = <I extends Blockchain | Marketplace | SandboxFaucet, S extends object>(tag: Context.Key<I, S>): S =>
    new Proxy({} as S, { get: (_target, key) => Reflect.get(Context.get(current.reached.context, tag), key) })
  return Context.make(Blockchain, forward(Blockchain)).pipe(
    Context.add(Marketplace, forward(Marketplace)),
    Context.add(SandboxFaucet, forward(SandboxFaucet))
  )
}

/**
 * The sandbox world of `dataDir`: owned by this process if nobody owns it yet, else joined. A process
 * that joined watches the owner: once it is gone (twice unanswered), the process takes the world over
 * (the chain from `DATA_DIR/ton-sandbox.json`, the Fragment simulator's sessions and open invoices
 * from `DATA_DIR/fragment-sandbox.json`) or
 * joins whoever did, so the processes of a data directory keep sharing one world.
 */
export const sharedSandboxWorld = (
  dataDir: string,
  timing: SandboxMarketTiming
): Layer.Layer<Blockchain | Marketplace | SandboxFaucet, unknown> =>
  Layer.effectContext(
    Effect.gen(function* () {
      yield* Effect.sync(() => mkdirSync(dataDir, { recursive: true }))
      const socket = worldSocketOf(dataDir)
      const first = yield* ownOrJoin(dataDir, socket, timing)
      if (first.owner === process.pid) return first.context
      const current = { reached: first, misses: 0 }
      const watch = Effect.gen(function* () {
        const now = yield* discover(socket)
        const same =
          Option.isSome(now) &&
          now.value.pid === current.reached.owner &&
          now.value.toncenter === current.reached.toncenter
        current.misses = same ? 0 : current.misses + 1
        if (current.misses < 2) return
        const gone = current.reached.owner
        current.reached = yield* ownOrJoin(dataDir, socket, timing)
        current.misses = 0
        yield* Effect.logWarning(
          `sandbox world owner ${gone} is gone: ${current.reached.owner === process.pid ? "this process owns the world now" : `joined process ${current.reached.owner}`}`
        )
      }).pipe(Effect.catchCause((cause) => Effect.logWarning("sandbox world watch failed", cause)))
      yield* Effect.forkScoped(Effect.repeat(watch, Schedule.spaced("1 second")))
      return delegating(current)
    })
  )
