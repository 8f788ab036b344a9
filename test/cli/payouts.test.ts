import { assert, layer } from "@effect/vitest"
import { formatTon, type Nanoton } from "@resale/core/money/Nanoton.ts"
import { Blockchain } from "@resale/core/ports/Blockchain.ts"
import { DirectPurchaseRecords } from "@resale/core/ports/DirectPurchaseRecords.ts"
import { deriveKeys, SandboxBlockchain, walletContract } from "@resale/ton"
import { mnemonicNew } from "@ton/crypto"
import { Address } from "@ton/ton"
import { Array, Effect, Option, Redacted } from "effect"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { randomBytes } from "node:crypto"
import { CliDatabase, cli, CliTestLayer, json } from "./support/CliHarness.ts"

// Sandbox mode as the server decides it (no bot token), and a port no server answers on.
const sandboxEnv = { TELEGRAM_BOT_TOKEN: undefined, SANDBOX: undefined, PORT: "9" }
const resale = (...args: Array<string>) => cli(args, { env: sandboxEnv })

const TON = 1_000_000_000n
const fingerprint = () => randomBytes(32).toString("hex")
const freshAddress = () => new Address(0, randomBytes(32)).toString({ bounceable: false, urlSafe: true })

/** A new 24-word phrase and its V4R2 address (generated per run, never written anywhere). */
const newWallet = Effect.gen(function* () {
  const phrase = Redacted.make((yield* Effect.promise(() => mnemonicNew(24))).join(" "))
  const keys = yield* Effect.orDie(deriveKeys(phrase))
  const key = keys.find((k) => k.kind === "ton")!
  return {
    phrase,
    address: walletContract("v4r2", key.key.publicKey, -239).address.toString({ bounceable: false, urlSafe: true })
  }
})

/** The sandbox chain of the test's DATA_DIR, opened in this process for one effect, then closed. */
const onChain = <A, E>(f: Effect.Effect<A, E, Blockchain | SandboxBlockchain>) =>
  Effect.gen(function* () {
    const { dataDir } = yield* CliDatabase
    return yield* f.pipe(Effect.provide(SandboxBlockchain.layerWith({ dataDir })))
  }).pipe(Effect.scoped, Effect.orDie)

layer(CliTestLayer, { timeout: "180 seconds", excludeTestServices: true })(
  "resale payouts, reconcile, sandbox fund (in process, sandbox chain)",
  (it) => {
    it.effect(
      "sandbox fund, then an unknown payment is settled on chain by reconcile; one never signed fails",
      () =>
        Effect.gen(function* () {
          const wallet = yield* newWallet
          const funded = yield* resale("sandbox", "fund", wallet.address, "50", "--json")
          assert.strictEqual(funded.code, 0, funded.stderr)
          assert.deepStrictEqual(json(funded), {
            address: wallet.address,
            funded: "50",
            balance: "50",
            network: "sandbox"
          })

          // A customer's transfer whose answer was lost after sending: signed, sent, recorded as unknown.
          const to = freshAddress()
          const records = yield* DirectPurchaseRecords
          const paidOrder = `cli-paid-${fingerprint().slice(0, 8)}`
          const prepared = yield* onChain(
            Effect.gen(function* () {
              const chain = yield* Blockchain
              const resolved = yield* chain.resolveWallet(wallet.phrase)
              assert.strictEqual(resolved.balance, 50n * TON)
              const claim = yield* records.claim(
                {
                  orderId: paidOrder,
                  kind: "transfer",
                  fingerprint: fingerprint(),
                  network: "sandbox",
                  walletAddress: resolved.address,
                  walletVersion: resolved.version,
                  recipient: to,
                  amount: ((3n * TON) / 2n) as Nanoton,
                  units: null,
                  comment: null
                },
                new Date()
              )
              assert.strictEqual(claim._tag, "Claimed")
              const paidId = claim.record.id
              const signed = yield* chain.prepareTransfer(resolved, { to, amount: ((3n * TON) / 2n) as Nanoton })
              yield* records.transition(
                paidId,
                ["pending"],
                "sending",
                {
                  prepared: signed,
                  payTo: to,
                  payAmount: signed.amount,
                  lock: true
                },
                new Date()
              )
              yield* chain.send(signed)
              yield* records.transition(
                paidId,
                ["sending"],
                "unknown",
                {
                  errorReason: "TransferFailed",
                  errorMessage: "the node stopped answering after the message was sent"
                },
                new Date()
              )
              return signed
            })
          )

          // Another one whose process died before anything was signed.
          const abandoned = `cli-abandoned-${fingerprint().slice(0, 8)}`
          const abandonedClaim = yield* records.claim(
            {
              orderId: abandoned,
              kind: "transfer",
              fingerprint: fingerprint(),
              network: "sandbox",
              walletAddress: wallet.address,
              walletVersion: "v4r2",
              recipient: freshAddress(),
              amount: TON as Nanoton,
              units: null,
              comment: null
            },
            new Date()
          )
          yield* records.transition(abandonedClaim.record.id, ["pending"], "unknown", {}, new Date()).pipe(Effect.orDie)

          const open = json(yield* resale("payouts", "list", "--json"))
          assert.sameMembers(
            open.items.map((r: { order_id: string }) => r.order_id),
            [paidOrder, abandoned]
          )
          assert.isTrue(open.items.every((r: { state: string }) => r.state === "unknown"))
          const table = yield* resale("payouts", "list")
          assert.match(
            table.stdout,
            new RegExp(`^${paidOrder}\\s+transfer\\s+unknown\\s+outcome unknown: to be checked on chain`, "m")
          )

          const shown = json(yield* resale("payouts", "show", paidOrder, "--json"))
          assert.strictEqual(shown.prepared.external_hash, prepared.externalHash)
          assert.strictEqual(shown.pay_amount, "1500000000")

          const settled = yield* resale("reconcile", "--json")
          assert.strictEqual(settled.code, 0, settled.stderr)
          const body = json(settled)
          assert.strictEqual(body.checked, 2)
          assert.strictEqual(body.settled, 2)
          assert.strictEqual(body.still_open, 0)
          const byId = new Map(body.changes.map((c: { record: { order_id: string } }) => [c.record.order_id, c]))
          const paid: any = byId.get(paidOrder)
          assert.deepStrictEqual([paid.from, paid.to], ["unknown", "done"])
          assert.match(paid.record.tx_hash, /^[0-9a-f]{64}$/)
          assert.isAbove(Number(paid.record.fee), 0)
          const dead: any = byId.get(abandoned)
          assert.deepStrictEqual([dead.from, dead.to], ["unknown", "failed"])
          assert.strictEqual(dead.record.error_reason, "Abandoned")

          // The store agrees, and the chain moved exactly once: amount + the fee reported.
          const stored = Option.getOrThrow(Array.head(yield* records.findByOrderId(paidOrder)))
          assert.strictEqual(stored.state, "done")
          const balanceAfter = yield* onChain(Blockchain.use((chain) => chain.balance(wallet.address)))
          assert.strictEqual(balanceAfter, 50n * TON - (3n * TON) / 2n - stored.fee!)

          const again = yield* resale("reconcile")
          assert.strictEqual(again.code, 0, again.stderr)
          assert.include(again.stdout, "Nothing to reconcile")
          const one = json(yield* resale("reconcile", paidOrder, "--json"))
          assert.strictEqual(one.checked, 1)
          assert.strictEqual(one.settled, 0)
          assert.include((yield* resale("payouts", "list", "--state", "unknown")).stdout, "No unknown wallet payments.")

          // Finished payments stay listed with what they cost; filters and paging narrow the list.
          const every = json(yield* resale("payouts", "list", "--json"))
          assert.strictEqual(every.total, 2)
          const listed: any = every.items.find((r: { order_id: string }) => r.order_id === paidOrder)
          assert.deepStrictEqual(
            [listed.state, listed.tx_hash, listed.fee, listed.ref],
            ["done", stored.txHash, String(stored.fee), null]
          )
          const finished = (yield* resale("payouts", "list")).stdout
          assert.match(
            finished,
            new RegExp(
              `^${paidOrder}\\s+transfer\\s+done\\s+transferred\\s+\\S+\\s+1\\.5\\s+${formatTon(stored.fee!).replace(".", "\\.")}\\s+${stored.txHash!.slice(0, 16)}…`,
              "m"
            )
          )
          assert.match(finished, new RegExp(`^${abandoned}\\s+transfer\\s+failed\\s+failed, nothing paid`, "m"))
          assert.include(finished, "2 wallet payments")
          const secondPage = yield* resale("payouts", "list", "--limit", "1", "--offset", "1", "--json")
          assert.deepStrictEqual(
            json(secondPage).items.map((r: { order_id: string }) => r.order_id),
            [every.items[1].order_id]
          )
          assert.strictEqual(json(secondPage).total, 2)
          assert.include(
            (yield* resale("payouts", "list", "--limit", "1", "--offset", "1")).stdout,
            "wallet payments 2-2 of 2"
          )
          const failed = json(yield* resale("payouts", "list", "--state", "failed", "--kind", "transfer", "--json"))
          assert.deepStrictEqual(
            failed.items.map((r: { order_id: string }) => r.order_id),
            [abandoned]
          )
          assert.include((yield* resale("payouts", "list", "--kind", "stars")).stdout, "No stars wallet payments.")
        }),
      { timeout: 240_000 }
    )

    it.effect(
      "unknown order ids, bad amounts, production mode and a running server are refused clearly",
      () =>
        Effect.gen(function* () {
          const missing = yield* resale("payouts", "show", "no-such-order")
          assert.strictEqual(missing.code, 1)
          assert.include(missing.stderr, "No wallet payment has order id no-such-order.")
          const missingReconcile = yield* resale("reconcile", "no-such-order", "--json")
          assert.strictEqual(missingReconcile.code, 1)
          assert.strictEqual(json(missingReconcile).code, "NotFound")

          for (const args of [
            ["--state", "lost"],
            ["--kind", "gift"],
            ["--limit", "0"],
            ["--offset", "-1"]
          ]) {
            const run = yield* resale("payouts", "list", ...args)
            assert.strictEqual(run.code, 2, `${args.join(" ")}: ${run.stderr}`)
            if (args[0] === "--state")
              assert.include(run.stderr, "Allowed choices are pending, sending, sent, done, failed, unknown")
          }

          const address = freshAddress()
          for (const amount of ["0", "-1", "1.0000000001", "ten"]) {
            const run = yield* resale("sandbox", "fund", address, amount)
            assert.strictEqual(run.code, 2, `${amount}: ${run.stderr}`)
          }
          const badAddress = yield* resale("sandbox", "fund", "not-an-address", "1")
          assert.strictEqual(badAddress.code, 1)
          assert.include(badAddress.stderr, "not a valid TON address")

          const production = yield* cli(["sandbox", "fund", address, "1"], { env: { ...sandboxEnv, SANDBOX: "false" } })
          assert.strictEqual(production.code, 1)
          assert.include(production.stderr, "works only in sandbox mode")

          const server = createServer((_req, res) => {
            res.writeHead(200, { "content-type": "application/json" })
            res.end(JSON.stringify({ status: "ok" }))
          })
          yield* Effect.acquireRelease(
            Effect.promise(() => new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))),
            () => Effect.promise(() => new Promise<void>((resolve) => server.close(() => resolve())))
          )
          const port = String((server.address() as AddressInfo).port)
          const busy = yield* cli(["sandbox", "fund", address, "1"], { env: { ...sandboxEnv, PORT: port } })
          assert.strictEqual(busy.code, 1)
          assert.include(busy.stderr, `answers on port ${port} and owns the sandbox chain`)
          const untouched = yield* onChain(Blockchain.use((chain) => chain.balance(address)))
          assert.strictEqual(untouched, 0n)
        }).pipe(Effect.scoped),
      { timeout: 240_000 }
    )
  }
)
