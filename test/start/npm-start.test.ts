/**
 * `npm start` as an operator runs it: the real entry (the start bundle of `packages/http/src/main.ts`) in its own process,
 * with no configuration but a data directory and a port, so on the embedded PostgreSQL in sandbox mode.
 * One process serves /v2, the direct purchase surface and the faucet, and runs the worker, all on one
 * TON emulator and one Fragment simulator; a restart on the same data directory keeps every balance,
 * order and the chain. A second start in production mode has no faucet.
 */
import { assert, describe, it } from "@effect/vitest"
import { type Nanoton, parseNanoton, parseNanotonNumber } from "@resale/core/money/Nanoton.ts"
import { createDatabase, databaseUrl, dropDatabase, uniqueName } from "@resale/store/testing/TestDatabase.ts"
import { deriveKeys, walletContract } from "@resale/ton"
import { mnemonicNew } from "@ton/crypto"
import { Address } from "@ton/ton"
import { Effect, Redacted } from "effect"
import { execFile } from "node:child_process"
import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { entryProcess, freePort, NODE, ROOT, stopEntry as stop } from "../support/ServerEntry.ts"
import { bundledEntry } from "../worker/support/BundledEntry.ts"

// Settings a developer's shell may carry that would change what `npm start` does with no configuration.
const INHERITED = [
  "DATABASE_URL",
  "ADMIN_TOKEN",
  "SESSION_SECRET",
  "HOST",
  "SANDBOX",
  "TELEGRAM_BOT_TOKEN",
  "HOT_WALLET_MNEMONIC",
  "PUBLIC_URL",
  "WORKER",
  "TONCENTER_URL",
  "FRAGMENT_COOKIES",
  "FRAGMENT_URL",
  "VAPID_PUBLIC_KEY",
  "VAPID_PRIVATE_KEY"
]

// The start bundles of these sources, as `npm start` and `resale` run them.
const running = (env: NodeJS.ProcessEnv, port: number) =>
  Effect.flatMap(bundledEntry("server"), (main) => entryProcess(env, port, main))

const baseEnv = (extra: Record<string, string>): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const name of INHERITED) delete env[name]
  return { ...env, TELEGRAM_API_URL: "http://127.0.0.1:9", ...extra }
}

type Json = Record<string, any>
const call = (url: string, init: RequestInit = {}) =>
  Effect.promise(async () => {
    const response = await fetch(url, { redirect: "manual", ...init, signal: AbortSignal.timeout(120_000) })
    const text = await response.text()
    let body: Json = {}
    try {
      body = text === "" ? {} : JSON.parse(text)
    } catch {
      body = { text }
    }
    return { status: response.status, headers: response.headers, body }
  })
const postJson = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  call(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) })

/** A fresh 24-word phrase (made per run, never written anywhere) and its V5R1 address, derived with the ton package. */
const newWallet = Effect.gen(function* () {
  const words = (yield* Effect.promise(() => mnemonicNew(24))).join(" ")
  const keys = yield* Effect.orDie(deriveKeys(Redacted.make(words)))
  const key = keys.find((k) => k.kind === "ton")!
  const address = walletContract("v5r1", key.key.publicKey, -239).address.toString({ bounceable: false, urlSafe: true })
  return { words, address }
})

const nano = (value: number | string): bigint => {
  const parsed = typeof value === "number" ? parseNanotonNumber(value) : parseNanoton(value)
  if (typeof parsed !== "bigint") throw new Error(`not a TON amount: ${value}`)
  return parsed as Nanoton
}

const cliFund = (env: NodeJS.ProcessEnv, address: string, ton: string) =>
  Effect.flatMap(bundledEntry("cli"), (main) =>
    Effect.promise(
      () =>
        new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
          execFile(
            NODE,
            [main, "sandbox", "fund", address, ton, "--json"],
            { cwd: ROOT, env, timeout: 120_000 },
            (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr })
          )
        })
    )
  )

const waitFor = <A>(what: string, look: Effect.Effect<A>, done: (a: A) => boolean, timeoutMs = 150_000) =>
  Effect.gen(function* () {
    const deadline = Date.now() + timeoutMs
    let last = yield* look
    while (!done(last)) {
      if (Date.now() > deadline)
        return yield* Effect.die(new Error(`timed out waiting for ${what}: ${JSON.stringify(last)}`))
      yield* Effect.sleep("500 millis")
      last = yield* look
    }
    return last
  })

// The three starts side by side: each has its own port, data directory and database, and most of a
// test is waiting on its server process.
describe.concurrent("npm start (one process: server + worker, one sandbox world)", () => {
  it.live(
    "embedded database, sandbox: faucet, direct transfer, top-up, stars by the in-process worker; all kept across a restart",
    () =>
      Effect.gen(function* () {
        const dataDir = mkdtempSync(join(tmpdir(), "resale-start-"))
        yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dataDir, { recursive: true, force: true })))
        const port = yield* Effect.promise(freePort)
        const base = `http://127.0.0.1:${port}`
        const env = baseEnv({ PORT: String(port), DATA_DIR: dataDir })

        const first = yield* running(env, port)
        const banner = first.output()
        assert.include(banner, `resale listening on ${base} (port ${port}) - SANDBOX MODE`)
        const token = /admin token \(generated; set ADMIN_TOKEN to keep one\): ([A-Za-z0-9_-]+)/.exec(banner)?.[1]
        assert.isDefined(token)
        const signInLink = /sandbox sign-in: ([^\s"]+)/.exec(banner)?.[1]
        assert.strictEqual(signInLink, `${base}/v2/auth/sandbox?user=demo`)
        assert.include(banner, "worker: running in this process")
        assert.strictEqual((yield* call(`${base}/healthz`)).status, 200)
        // One 404/405 table for every surface: direct routes, web routes, the faucet, and what exists nowhere.
        // (`/status` answers POST too, as Pixy's does.)
        assert.strictEqual((yield* call(`${base}/status`, { method: "POST" })).status, 200)
        assert.strictEqual((yield* call(`${base}/v2/static/app.js`, { method: "POST" })).status, 405)
        assert.strictEqual((yield* call(`${base}/v2/api/admin/sandbox/fund`)).status, 405)
        assert.deepStrictEqual((yield* call(`${base}/nowhere`)).status, 404)

        // The faucet: every invalid part first, then the token, then the money.
        const faucet = `${base}/v2/api/admin/sandbox/fund`
        const wallet = yield* newWallet
        const invalid = yield* postJson(faucet, { address: "not-an-address", amount_ton: "1.0000000001" })
        assert.strictEqual(invalid.status, 422)
        assert.deepStrictEqual(
          invalid.body.detail.map((d: Json) => [d.loc.join("."), d.type]),
          [
            ["body.address", "value_error"],
            ["body.amount_ton", "decimal_max_places"]
          ]
        )
        const empty = yield* postJson(faucet, {})
        assert.deepStrictEqual(
          empty.body.detail.map((d: Json) => [d.loc.join("."), d.type]),
          [
            ["body.address", "missing"],
            ["body.amount_ton", "missing"]
          ]
        )
        const negative = yield* postJson(faucet, { address: wallet.address, amount_ton: -1 })
        assert.deepStrictEqual(
          negative.body.detail.map((d: Json) => d.type),
          ["greater_than"]
        )
        assert.strictEqual((yield* postJson(faucet, { address: wallet.address, amount_ton: "1" })).status, 401)
        assert.strictEqual(
          (yield* postJson(faucet, { address: wallet.address, amount_ton: "1" }, { "x-admin-token": `${token}x` }))
            .status,
          401
        )
        const funded = yield* postJson(
          faucet,
          { address: wallet.address, amount_ton: "20.5" },
          { "x-admin-token": token! }
        )
        assert.strictEqual(funded.status, 200, JSON.stringify(funded.body))
        assert.deepStrictEqual(
          [
            funded.body.address,
            funded.body.funded_ton,
            funded.body.balance_ton,
            funded.body.balance_nanoton,
            funded.body.sandbox
          ],
          [wallet.address, "20.5", "20.5", "20500000000", true]
        )

        // A JSON number is taken from its decimal text: 0.1 is exactly 100 000 000 nanoton, not a float's neighbour.
        const tenth = yield* postJson(faucet, { address: wallet.address, amount_ton: 0.1 }, { "x-admin-token": token! })
        assert.deepStrictEqual([tenth.status, tenth.body.funded_ton], [200, "0.1"])

        // The CLI goes through the running server (which owns the chain), not through the state file.
        const cli = yield* cliFund({ ...env, ADMIN_TOKEN: token! }, wallet.address, "1.5")
        assert.strictEqual(cli.code, 0, cli.stderr)
        const viaCli = JSON.parse(cli.stdout)
        assert.deepStrictEqual([viaCli.address, viaCli.funded, viaCli.network], [wallet.address, "1.5", "sandbox"])
        // An uninitialized account pays storage on every message it receives: a few nanoton at most here.
        const funded2 = nano(viaCli.balance)
        assert.isTrue(funded2 <= nano("22.1") && funded2 > nano("22.1") - 1000n, viaCli.balance)

        // A direct transfer from that wallet, paid on the emulator the faucet funded.
        const to = new Address(0, randomBytes(32)).toString({ bounceable: false, urlSafe: true })
        const orderId = `start-${randomBytes(4).toString("hex")}`
        const before = yield* postJson(`${base}/balance`, { seed: wallet.words })
        assert.deepStrictEqual([before.body.address, nano(before.body.balance)], [wallet.address, funded2])
        const transfer = yield* postJson(`${base}/coin/transfer`, {
          to,
          amount: 2.25,
          seed: wallet.words,
          order_id: orderId
        })
        assert.strictEqual(transfer.status, 200, JSON.stringify(transfer.body))
        assert.strictEqual(transfer.body.ok, true)
        assert.strictEqual(transfer.body.order_id, orderId)
        assert.match(transfer.body.tx_hash, /^[0-9a-f]{64}$/)
        assert.isAbove(transfer.body.fee, 0)
        const after = yield* postJson(`${base}/balance`, { seed: wallet.words })
        assert.strictEqual(after.body.address, wallet.address)
        const walletBalance = nano(after.body.balance)
        // Exactly the amount and the fee reported (storage due included in the fee) left the wallet.
        assert.strictEqual(walletBalance, funded2 - nano("2.25") - nano(transfer.body.fee))

        // A sandbox shopper: sign-in link, top-up, the bank relay's payment, an API key, stars.
        const signIn = yield* call(signInLink!)
        assert.strictEqual(signIn.status, 303)
        const cookie = signIn.headers.get("set-cookie")!.split(";")[0]!
        const form = { cookie, "content-type": "application/x-www-form-urlencoded" }
        const topup = yield* call(`${base}/v2/balance/top-up`, {
          method: "POST",
          headers: form,
          body: "amount_uzs=150000"
        })
        assert.strictEqual(topup.status, 200, JSON.stringify(topup.body))
        const payable: number = topup.body.payable_uzs
        const incoming = yield* postJson(
          `${base}/v2/api/admin/payments/incoming`,
          { amount_uzs: payable, card_last4: "4242", external_id: `start-${orderId}` },
          { "x-admin-token": token! }
        )
        assert.deepStrictEqual([incoming.body.status, incoming.body.topup_id], ["matched", topup.body.topup.topup_id])
        const key = (yield* call(`${base}/v2/api-key/rotate`, { method: "POST", headers: { cookie } })).body.api_key
        const price = (yield* call(`${base}/v2/api/pricing`)).body.star_price_uzs
        const bought = yield* postJson(
          `${base}/v2/api/stars/buy`,
          { username: "start_friend", amount: 50 },
          { "x-api-key": key }
        )
        assert.strictEqual(bought.status, 200, JSON.stringify(bought.body))
        assert.strictEqual(bought.body.balance_uzs, payable - 50 * price)

        // The worker of this same process fulfils it: paid from the hot wallet, delivered by the simulator.
        const list = yield* waitFor(
          "the stars order to complete",
          Effect.map(call(`${base}/v2/orders/list`, { headers: { cookie } }), (r) => r.body),
          (body) => body.orders?.[0]?.status === "completed" || body.orders?.[0]?.status === "failed"
        )
        const order = list.orders[0]
        assert.deepStrictEqual(
          [order.order_id, order.status, order.stars, order.username],
          [bought.body.order.order_id, "completed", 50, "start_friend"]
        )
        assert.isString(order.tx_id)
        const balanceBefore = (yield* call(`${base}/v2/balance`, { headers: { cookie } })).body.balance_uzs
        assert.strictEqual(balanceBefore, payable - 50 * price)

        // SIGTERM: the process stops by itself.
        assert.strictEqual(yield* stop(first), 0, first.output())

        // Restart on the same data directory: the database and the chain are still there.
        const second = yield* running(env, port)
        const again = yield* call(signInLink!)
        const cookie2 = again.headers.get("set-cookie")!.split(";")[0]!
        assert.strictEqual(
          (yield* call(`${base}/v2/balance`, { headers: { cookie: cookie2 } })).body.balance_uzs,
          balanceBefore
        )
        const kept = (yield* call(`${base}/v2/orders/list`, { headers: { cookie: cookie2 } })).body
        assert.deepStrictEqual(
          [kept.total, kept.orders[0].order_id, kept.orders[0].status],
          [1, order.order_id, "completed"]
        )
        const chainAfter = yield* postJson(`${base}/balance`, { seed: wallet.words })
        assert.strictEqual(nano(chainAfter.body.balance), walletBalance)
        // The same order id answers its stored result and pays nothing again.
        const repeat = yield* postJson(`${base}/coin/transfer`, {
          to,
          amount: 2.25,
          seed: wallet.words,
          order_id: orderId
        })
        assert.deepStrictEqual([repeat.status, repeat.body.tx_hash], [200, transfer.body.tx_hash])
        assert.strictEqual(
          nano((yield* postJson(`${base}/balance`, { seed: wallet.words })).body.balance),
          walletBalance
        )
        assert.strictEqual(yield* stop(second), 0, second.output())
      }).pipe(Effect.scoped),
    420_000
  )

  it.live(
    "production mode: toncenter and Fragment adapters, no faucet, worker apart with WORKER=false",
    () =>
      Effect.gen(function* () {
        const name = uniqueName("resale_start")
        yield* Effect.acquireRelease(createDatabase(name), () => dropDatabase(name).pipe(Effect.orDie)).pipe(
          Effect.orDie
        )
        const dataDir = mkdtempSync(join(tmpdir(), "resale-start-prod-"))
        yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dataDir, { recursive: true, force: true })))
        const port = yield* Effect.promise(freePort)
        const base = `http://127.0.0.1:${port}`
        const server = yield* running(
          baseEnv({
            PORT: String(port),
            DATA_DIR: dataDir,
            DATABASE_URL: databaseUrl(name),
            SANDBOX: "false",
            WORKER: "false",
            ADMIN_TOKEN: "start-test-admin-token-of-24+",
            SESSION_SECRET: "start-test-session-secret-of-32-chars+",
            TELEGRAM_BOT_TOKEN: "123:start-test-bot-token",
            TONCENTER_URL: "http://127.0.0.1:9/api/v2/jsonRPC",
            FRAGMENT_URL: "http://127.0.0.1:9",
            FRAGMENT_COOKIES: "stel_ssid=t; stel_dt=-1; stel_token=t; stel_ton_token=t"
          }),
          port
        )
        const banner = server.output()
        assert.notInclude(banner, "SANDBOX MODE")
        assert.notInclude(banner, "sandbox sign-in")
        assert.include(banner, "worker: not in this process")
        const fund = yield* postJson(
          `${base}/v2/api/admin/sandbox/fund`,
          { address: "0:" + "0".repeat(64), amount_ton: "1" },
          { "x-admin-token": "start-test-admin-token-of-24+" }
        )
        assert.deepStrictEqual(
          [fund.status, fund.body],
          [404, { detail: "Not Found", code: "not_found", request_id: fund.headers.get("x-request-id") }]
        )
        const status = yield* call(`${base}/status`)
        assert.deepStrictEqual([status.body.network, status.body.sandbox], ["mainnet", false])
        assert.strictEqual(yield* stop(server), 0, server.output())
      }).pipe(Effect.scoped),
    180_000
  )

  it.live(
    "production mode with the worker in process: one gift sender serves the catalogue and the worker",
    () =>
      Effect.gen(function* () {
        const name = uniqueName("resale_start")
        yield* Effect.acquireRelease(createDatabase(name), () => dropDatabase(name).pipe(Effect.orDie)).pipe(
          Effect.orDie
        )
        const dataDir = mkdtempSync(join(tmpdir(), "resale-start-prod-worker-"))
        yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dataDir, { recursive: true, force: true })))
        const port = yield* Effect.promise(freePort)
        const server = yield* running(
          baseEnv({
            PORT: String(port),
            DATA_DIR: dataDir,
            DATABASE_URL: databaseUrl(name),
            SANDBOX: "false",
            ADMIN_TOKEN: "start-test-admin-token-of-24+",
            SESSION_SECRET: "start-test-session-secret-of-32-chars+",
            TELEGRAM_BOT_TOKEN: "123:start-test-bot-token",
            HOT_WALLET_MNEMONIC: (yield* Effect.promise(() => mnemonicNew(24))).join(" "),
            TONCENTER_URL: "http://127.0.0.1:9/api/v2/jsonRPC",
            FRAGMENT_URL: "http://127.0.0.1:9",
            FRAGMENT_COOKIES: "stel_ssid=t; stel_dt=-1; stel_token=t; stel_ton_token=t"
          }),
          port
        )
        const output = server.output()
        assert.include(output, "worker: running in this process")
        // Built once per process: with Telegram accounts configured this is one MTProto client per account.
        assert.strictEqual(output.split("TELEGRAM_API_ID is not set").length - 1, 1, output)
        assert.strictEqual(yield* stop(server), 0, server.output())
      }).pipe(Effect.scoped),
    180_000
  )
})
