/**
 * CPU time per `/coin/transfer` request against the bare key derivation of the same phrase, in one run:
 * `node bench/direct/run.ts`. Prints figures; never fails on time (target: request <= 1.2 x derivation).
 *
 * The request runs end to end in this process: HTTP over loopback, field checks, key derivation, wallet
 * lookups, the order record on PostgreSQL (a fresh database), signing, the in-process TON VM executing
 * the transfer, confirmation by hash. The emulator's own CPU is measured apart: in production that
 * work happens on the network, not in this service. CPU is process CPU (user + system, all threads,
 * so PBKDF2 on libuv's pool counts). Settings: BENCH_REQUESTS (default 30), BENCH_PHRASE (ton24 | bip12),
 * TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432), BENCH_WARMUP (requests not counted, default 3),
 * BENCH_CPU_PROFILE (a file: a CPU profile of the measured requests only, for where the share goes).
 */
import { NodeHttpServer } from "@effect/platform-node"
import * as NodeCrypto from "@effect/platform-node/NodeCrypto"
import { DirectSettings } from "@resale/core/direct/DirectSettings.ts"
import { Blockchain, type Nanoton } from "@resale/core/ports/Blockchain.ts"
import { DirectHttpConfig } from "@resale/http/direct/DirectConfig.ts"
import { DirectRouteHandlers, DirectServices } from "@resale/http/direct/DirectRoutes.ts"
import { sandboxMarketplace } from "@resale/http/direct/DirectSandbox.ts"
import { Migrations } from "@resale/store/Migrations.ts"
import { PgConnection } from "@resale/store/PgConnection.ts"
import { createDatabase, databaseUrl, dropDatabase, uniqueName } from "@resale/store/testing/TestDatabase.ts"
import type { ChainClient } from "@resale/ton/ChainClient.ts"
import { deriveKeys } from "@resale/ton/Mnemonic.ts"
import { SandboxBlockchain, sandboxClient } from "@resale/ton/SandboxBlockchain.ts"
import { makeTonBlockchain } from "@resale/ton/TonBlockchain.ts"
import { walletContract } from "@resale/ton/WalletContracts.ts"
import { generateMnemonic } from "@scure/bip39"
import { wordlist } from "@scure/bip39/wordlists/english.js"
import { mnemonicNew, mnemonicValidate } from "@ton/crypto"
import { Address } from "@ton/ton"
import { Context, Effect, Layer, Logger, Redacted } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { writeFileSync } from "node:fs"
import { createServer } from "node:http"
import { Session } from "node:inspector/promises"
import { request } from "undici"

const REQUESTS = Number(process.env["BENCH_REQUESTS"] ?? 30)
const KIND = process.env["BENCH_PHRASE"] === "bip12" ? "bip12" : "ton24"
const WARMUP = Number(process.env["BENCH_WARMUP"] ?? 3)
const TARGET = 1.2
const PROFILE = process.env["BENCH_CPU_PROFILE"]

/** Process CPU (user + system, every thread) in milliseconds. */
const cpuMs = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}

/** CPU milliseconds spent inside the emulator. */
const emulatorTime = { ms: 0, active: 0, since: 0 }
const timed = (client: ChainClient): ChainClient => {
  // Process CPU over the union of the intervals in which any emulator call runs (wallet lookups run
  // four at a time); nothing else of the request runs meanwhile, so this is the emulator's CPU.
  const time = <A, E>(effect: Effect.Effect<A, E>) =>
    Effect.suspend(() => {
      if (emulatorTime.active++ === 0) emulatorTime.since = cpuMs()
      return Effect.ensuring(
        effect,
        Effect.sync(() => {
          if (--emulatorTime.active === 0) emulatorTime.ms += cpuMs() - emulatorTime.since
        })
      )
    })
  return {
    ...client,
    account: (a) => time(client.account(a)),
    sendBoc: (b) => time(client.sendBoc(b)),
    transactions: (a, p) => time(client.transactions(a, p))
  }
}

class Url extends Context.Service<Url, string>()("bench/direct/Url") {}

const phrase =
  KIND === "ton24"
    ? (await mnemonicNew(24)).join(" ")
    : await (async () => {
        while (true) {
          const words = generateMnemonic(wordlist, 128)
          if (!(await mnemonicValidate(words.split(" ")))) return words
        }
      })()

const program = Effect.gen(function* () {
  const url = yield* Url
  const sandbox = yield* SandboxBlockchain
  const keys = yield* Effect.orDie(deriveKeys(Redacted.make(phrase)))
  const address = walletContract("v4r2", keys[0]!.key.publicKey, -239).address.toString({ bounceable: false })
  yield* sandbox.fund(address, 1_000_000_000_000n as Nanoton)
  const to = new Address(0, Buffer.alloc(32, 7)).toString({ bounceable: false })

  const transfer = (n: number) =>
    Effect.promise(async () => {
      const res = await request(`${url}/coin/transfer`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ to, amount: 0.01, seed: phrase, order_id: `bench-${process.pid}-${n}` })
      })
      const text = await res.body.text()
      if (res.statusCode !== 200) throw new Error(`request ${n}: ${res.statusCode} ${text}`)
    })
  const derive = Effect.orDie(deriveKeys(Redacted.make(phrase)))

  for (let i = 0; i < WARMUP; i++) {
    yield* transfer(-1 - i)
    yield* derive
  }
  // Interleaved, so both see the same machine state; medians, since other processes share the CPU.
  const requestCpu: Array<number> = []
  const deriveCpu: Array<number> = []
  const emulatorMs: Array<number> = []
  const walls: Array<number> = []
  const profiler = PROFILE === undefined ? undefined : new Session()
  if (profiler !== undefined) {
    profiler.connect()
    yield* Effect.promise(async () => {
      await profiler.post("Profiler.enable")
      await profiler.post("Profiler.setSamplingInterval", { interval: 200 })
      await profiler.post("Profiler.start")
    })
  }
  for (let i = 0; i < REQUESTS; i++) {
    const before = emulatorTime.ms
    const t0 = cpuMs()
    const w0 = performance.now()
    yield* transfer(i)
    walls.push(performance.now() - w0)
    requestCpu.push(cpuMs() - t0)
    emulatorMs.push(emulatorTime.ms - before)
    const t1 = cpuMs()
    yield* derive
    deriveCpu.push(cpuMs() - t1)
  }
  if (profiler !== undefined && PROFILE !== undefined) {
    const { profile } = yield* Effect.promise(() => profiler.post("Profiler.stop"))
    writeFileSync(PROFILE, JSON.stringify(profile))
    profiler.disconnect()
  }
  const median = (xs: ReadonlyArray<number>) => xs.toSorted((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0
  const mean = (xs: ReadonlyArray<number>) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length)
  const service = requestCpu.map((c, i) => c - emulatorMs[i]!)
  const f = (x: number) => x.toFixed(1).padStart(7)
  const row = (label: string, xs: ReadonlyArray<number>, extra = "") =>
    console.log(`  ${label.padEnd(30)}${f(median(xs))} ms median ${f(mean(xs))} ms mean${extra}`)
  console.log(
    `direct /coin/transfer on the sandbox, ${REQUESTS} requests (${KIND} phrase, v4r2 wallet), one run, CPU time`
  )
  row("key derivation alone", deriveCpu)
  row("request, end to end", requestCpu, `   ${(median(requestCpu) / median(deriveCpu)).toFixed(2)} x derivation`)
  row("  of which the TON emulator", emulatorMs, "   (the network's work in production)")
  row(
    "request without the emulator",
    service,
    `   ${(median(service) / median(deriveCpu)).toFixed(2)} x derivation (target <= ${TARGET})`
  )
  row("wall time per request", walls)
  // Each request against the derivation right after it: the machine's state drifts less within a pair.
  const quantile = (xs: ReadonlyArray<number>, q: number) =>
    xs.toSorted((a, b) => a - b)[Math.floor(q * (xs.length - 1))]!
  const pairs = service.map((c, i) => c / deriveCpu[i]!)
  const at = (q: number) => quantile(pairs, q).toFixed(2)
  console.log(`  ratio per pair (without the emulator): median ${at(0.5)}x, quartiles ${at(0.25)}x-${at(0.75)}x`)
  // The service's own share in milliseconds: what the ratio measures, without the derivation's speed,
  // which differs twice over between machines of one kind.
  const shares = service.map((c, i) => c - deriveCpu[i]!)
  const ms = (q: number) => quantile(shares, q).toFixed(1)
  console.log(
    `  service share per pair (without the emulator, beyond the derivation): median ${ms(0.5)} ms, quartiles ${ms(0.25)}-${ms(0.75)} ms`
  )
})

const main = Effect.gen(function* () {
  const name = uniqueName("resale_bench")
  yield* Effect.acquireRelease(createDatabase(name), () => Effect.orDie(dropDatabase(name)))
  const connection = Migrations.layer.pipe(Layer.provideMerge(PgConnection.layerFromUrl(databaseUrl(name), 4)))
  const Chain = Layer.effectContext(
    Effect.gen(function* () {
      const sandbox = yield* SandboxBlockchain
      return Context.make(Blockchain, makeTonBlockchain(timed(sandboxClient(sandbox.emulator, Effect.void))))
    })
  ).pipe(Layer.provideMerge(SandboxBlockchain.layerWith()))
  const Ports = Layer.mergeAll(
    sandboxMarketplace(),
    Layer.succeed(DirectSettings, { ...DirectSettings.defaultValue(), pollEvery: "20 millis" })
  ).pipe(Layer.provideMerge(Chain), Layer.provideMerge(connection))
  const Routes = DirectRouteHandlers.pipe(
    Layer.provide(DirectHttpConfig.layerTest({ rateLimit: { perMinute: 1_000_000, burst: 1_000_000 } })),
    Layer.provide(DirectServices),
    // As the server provides it (ServerLayer.ts): hashes on node:crypto.
    Layer.provide(NodeCrypto.layerDigest)
  )
  const Served = HttpRouter.serve(Routes, { disableLogger: true, disableListenLog: true }).pipe(
    Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" }))
  )
  const App = Layer.effect(
    Url,
    Effect.gen(function* () {
      const server = yield* HttpServer.HttpServer
      if (server.address._tag === "UnixPathAddress") return yield* Effect.die("not TCP")
      return `http://127.0.0.1:${server.address.port}`
    })
  ).pipe(Layer.provide(Served), Layer.provideMerge(Ports))
  yield* program.pipe(Effect.provide(App))
}).pipe(Effect.scoped, Effect.provide(Logger.layer([])))

await Effect.runPromise(main)
