/**
 * A bot that holds its own keys buys stars through the wallet road with nothing but the SDK
 * (`directClient` and `walletSigner` of @resale/apiclient) against the server as `npm start` runs it
 * in sandbox mode: the TON VM served as toncenter, the Fragment simulator, real PostgreSQL. Every
 * request body the bot sends the service is recorded: none carries a phrase or a key, only the TON
 * Connect account and the signed message. Then the server is killed (SIGKILL) between the quote and
 * the report and started again on the same database and data directory: the report is accepted and
 * the order delivered once.
 */
import { assert, describe, it } from "@effect/vitest"
import {
  type DirectClient,
  directClient,
  type TonConnectAccount,
  type TonConnectTransaction,
  walletSigner
} from "@resale/apiclient"
import { keyPairFromSeed } from "@ton/crypto"
import { Address, Cell, TonClient } from "@ton/ton"
import { Effect } from "effect"
import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { freshDatabase } from "../worker/support/SharedWorld.ts"
import { bundledEntry } from "../worker/support/BundledEntry.ts"
import { freePort, startEntry, stopEntry } from "../support/ServerEntry.ts"
import { fundFromWorld, sandboxEnvironment, worldOf } from "../support/SandboxWorld.ts"

const TON = 1_000_000_000n

/** One sandbox server process on its own database and data directory, restartable on both. */
const sandboxServer = Effect.gen(function* () {
  const url = yield* freshDatabase
  const dataDir = mkdtempSync(join(tmpdir(), "resale-signer-"))
  yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dataDir, { recursive: true, force: true })))
  const port = yield* Effect.promise(freePort)
  const main = yield* bundledEntry("server")
  const env = sandboxEnvironment({ DATABASE_URL: url, DATA_DIR: dataDir, PORT: String(port), PG_POOL_MAX: "4" })
  const start = () => startEntry(env, port, undefined, main)
  let current = yield* start()
  yield* Effect.addFinalizer(() => Effect.asVoid(stopEntry(current)))
  const killAndRestart = Effect.gen(function* () {
    yield* Effect.promise(
      () =>
        new Promise<void>((done) => {
          current.child.once("exit", () => done())
          current.child.kill("SIGKILL")
        })
    )
    current = yield* start()
  })
  return {
    base: `http://127.0.0.1:${port}`,
    dataDir,
    killAndRestart,
    pid: () => current.child.pid,
    output: () => current.output()
  }
})

/** The SDK's client with every request body it sends recorded. */
const recordedClient = (base: string) => {
  const bodies: Array<string> = []
  const client = directClient(base, {
    fetch: async (request: Request) => {
      bodies.push(await request.clone().text())
      return fetch(request)
    }
  })
  return { client, bodies }
}

/** The bot's wallet: a fresh key pair only the test holds, funded from the sandbox faucet. */
const botWallet = (dataDir: string, direct: DirectClient, version: "v4r2" | "v5r1", funds: bigint) =>
  Effect.gen(function* () {
    const seed = randomBytes(32)
    const keys = keyPairFromSeed(seed)
    const world = yield* worldOf(dataDir)
    const signer = walletSigner({ keys, version, toncenter: { endpoint: world.toncenter }, direct })
    yield* fundFromWorld(world.toncenter, signer.address.toString({ bounceable: false }), funds)
    const secrets = [seed.toString("hex"), keys.secretKey.toString("hex"), keys.secretKey.toString("base64")]
    return { signer, secrets, keys, toncenter: world.toncenter }
  })

const quoteStars = (direct: DirectClient, account: TonConnectAccount, username: string, orderId: string) =>
  Effect.promise(async () => {
    const { data, error } = await direct.POST("/stars/quote", {
      body: { account, username, amount: 50, order_id: orderId }
    })
    if (data === undefined) throw new Error(`the quote was refused: ${JSON.stringify(error)}`)
    return data
  })

/** Asks the status until it is final; the final answer. */
const finalStatus = (direct: DirectClient, address: string, orderId: string) =>
  Effect.promise(async () => {
    const deadline = Date.now() + 60_000
    while (Date.now() < deadline) {
      const { data, error } = await direct.POST("/wallet/status", { body: { address, order_id: orderId } })
      if (data === undefined) throw new Error(`status refused: ${JSON.stringify(error)}`)
      if (data.final) return data
      await new Promise((r) => setTimeout(r, 300))
    }
    throw new Error("the order did not settle within a minute")
  })

/** How many payments carrying this transaction's `Ref#` reached the marketplace's wallet (read through toncenter). */
const paymentsToMarketplace = (dataDir: string, transaction: TonConnectTransaction) =>
  Effect.gen(function* () {
    const world = yield* worldOf(dataDir)
    const message = transaction.messages[0]!
    const comment = Cell.fromBase64(message.payload!).beginParse().skip(32).loadStringTail()
    const ref = /Ref#([A-Za-z0-9_-]+)/.exec(comment)![1]!
    const txs = yield* Effect.promise(() =>
      new TonClient({ endpoint: world.toncenter }).getTransactions(Address.parse(message.address), { limit: 100 })
    )
    return txs.filter((tx) => {
      const body = tx.inMessage?.body.beginParse()
      return (
        body !== undefined &&
        body.remainingBits >= 32 &&
        body.loadUint(32) === 0 &&
        body.loadStringTail().includes(`Ref#${ref}`)
      )
    }).length
  })

/** Why the signer refused (its error's message), or "signed". */
const refusalOf = (signing: Promise<string>) =>
  signing.then(
    () => "signed",
    (e: Error) => e.message
  )

const assertNoSecretSent = (bodies: ReadonlyArray<string>, secrets: ReadonlyArray<string>) => {
  assert.isAbove(bodies.length, 0)
  for (const body of bodies) {
    for (const secret of secrets) assert.notInclude(body, secret, "a key left the bot")
    assert.notMatch(body, /"(seed|mnemonic|secret_key|secretKey)"/)
  }
}

describe.concurrent("a bot with the SDK's signer, against the server process", () => {
  it.live(
    "buys stars: quoted for its TON Connect account, signed and broadcast by the bot, reported, delivered once",
    () =>
      Effect.gen(function* () {
        const server = yield* sandboxServer
        const { client, bodies } = recordedClient(server.base)
        const { signer, secrets, keys, toncenter } = yield* botWallet(server.dataDir, client, "v5r1", 5n * TON)
        const quote = yield* quoteStars(client, signer.account, "signerbot_fan", "bot-order-1")
        assert.strictEqual(quote.status, "awaiting_payment")
        assert.isTrue(Address.parse(quote.transaction.from!).equals(signer.address))

        const paid = yield* Effect.promise(() => signer.pay(quote))
        assert.strictEqual(paid.report.order_id, "bot-order-1")
        const done = yield* finalStatus(client, signer.account.address, "bot-order-1")
        assert.strictEqual(done.status, "delivered", JSON.stringify(done))
        assert.isTrue(done.reported)
        assert.strictEqual(yield* paymentsToMarketplace(server.dataDir, quote.transaction), 1)
        assertNoSecretSent(bodies, secrets)
        // an expired request, or one above the bot's own limit, is refused by the signer itself
        yield* Effect.promise(async () => {
          const expired = { ...quote.transaction, validUntil: Math.floor(Date.now() / 1000) - 1 }
          const refused = await refusalOf(signer.sign(expired))
          assert.match(refused, /expired/)
          const capped = walletSigner({
            keys,
            version: "v5r1",
            toncenter: { endpoint: toncenter },
            direct: client,
            maxNanoton: 100_000_000n
          })
          const overLimit = await refusalOf(capped.sign(quote.transaction))
          assert.match(overLimit, /more than this signer's limit of 100000000/)
        })
      }).pipe(Effect.scoped),
    240_000
  )

  it.live(
    "the server is killed (SIGKILL) between quote and report: restarted on the same database, it accepts the report and delivers once",
    () =>
      Effect.gen(function* () {
        const server = yield* sandboxServer
        const { client, bodies } = recordedClient(server.base)
        const { signer, secrets } = yield* botWallet(server.dataDir, client, "v4r2", 5n * TON)
        const quote = yield* quoteStars(client, signer.account, "crashbot_fan", "bot-crash-1")
        const boc = yield* Effect.promise(() => signer.sign(quote.transaction))
        yield* Effect.promise(() => signer.broadcast(boc))

        const killed = server.pid()
        yield* server.killAndRestart
        // the new process owns the world again: the chain and the invoices it restored from the data directory
        const world = yield* worldOf(server.dataDir)
        assert.deepStrictEqual([world.pid === killed, world.pid], [false, server.pid()])
        const report = yield* Effect.promise(() => signer.report("bot-crash-1", boc))
        assert.include(["awaiting_payment", "paid", "delivered"], report.status)
        // the same message again is the same report, not a second payment
        const again = yield* Effect.promise(() => signer.report("bot-crash-1", boc))
        assert.strictEqual(again.order_id, "bot-crash-1")
        const done = yield* finalStatus(client, signer.account.address, "bot-crash-1")
        assert.strictEqual(done.status, "delivered", `${JSON.stringify(done)}\n${server.output().slice(-3000)}`)
        assert.strictEqual(yield* paymentsToMarketplace(server.dataDir, quote.transaction), 1)
        assertNoSecretSent(bodies, secrets)
      }).pipe(Effect.scoped),
    300_000
  )
})
