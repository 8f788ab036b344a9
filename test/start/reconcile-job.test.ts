/**
 * The worker's reconcile job as `WorkerJobsLive` runs it (so also as `npm start` runs it in process),
 * on real PostgreSQL, the TON VM and the Fragment simulator: wallet payments whose outcome was left
 * open are settled on chain without anything being sent again. The payments job (which also looks at
 * them) is set to a one-hour period, so what settles them here is the reconcile job's own schedule.
 */
import { assert, layer } from "@effect/vitest"
import type { Nanoton } from "@resale/core/money/Nanoton.ts"
import { Blockchain } from "@resale/core/ports/Blockchain.ts"
import { DirectPurchaseRecords, type NewDirectPurchase } from "@resale/core/ports/DirectPurchaseRecords.ts"
import { GiftSender } from "@resale/core/ports/GiftSender.ts"
import { Notifier, NotifierError } from "@resale/core/ports/Notifier.ts"
import { IsolatedPostgres } from "@resale/store/testing/IsolatedPostgres.ts"
import { deriveKeys, SandboxBlockchain, walletContract } from "@resale/ton"
import { makeSimulatedGiftSender } from "@resale/telegram/SimulatedGiftSender.ts"
import { sandboxMarketplace } from "@resale/http/direct/DirectSandbox.ts"
import { WorkerConfig } from "@resale/worker/WorkerConfig.ts"
import { WorkerJobsLive } from "@resale/worker/WorkerLive.ts"
import { mnemonicNew } from "@ton/crypto"
import { Address } from "@ton/ton"
import { Array, Duration, Effect, Layer, Option, Redacted } from "effect"
import { randomBytes } from "node:crypto"

const TON = 1_000_000_000n

const Silent = Layer.succeed(Notifier)(
  Notifier.of({
    push: () => Effect.fail(new NotifierError({ channel: "push", reason: "NotConfigured", message: "test" })),
    botMessage: () => Effect.fail(new NotifierError({ channel: "bot", reason: "NotConfigured", message: "test" }))
  })
)
const Gifts = Layer.effect(GiftSender)(
  Effect.map(makeSimulatedGiftSender({ accounts: ["user"] }), (sim) => sim.service)
)

/** One emulator, the Fragment simulator on it, a fresh database: the world the jobs run in. */
const World = Layer.mergeAll(
  sandboxMarketplace().pipe(Layer.provideMerge(SandboxBlockchain.layerWith({ expiryMarginSeconds: 5 }))),
  IsolatedPostgres.layerStore
)

const Settings = WorkerConfig.layerTest({
  concurrency: 1,
  paymentsInterval: Duration.hours(1),
  reconcileDelay: Duration.millis(300),
  paymentStaleAfter: Duration.seconds(1)
})

const freshAddress = () => new Address(0, randomBytes(32)).toString({ bounceable: false, urlSafe: true })
const fingerprint = () => randomBytes(32).toString("hex")

/** A funded wallet of a phrase made for this run (never written anywhere). */
const fundedWallet = (ton: bigint) =>
  Effect.gen(function* () {
    const chain = yield* Blockchain
    const faucet = yield* SandboxBlockchain
    const phrase = Redacted.make((yield* Effect.promise(() => mnemonicNew(24))).join(" "))
    const first = yield* Effect.flip(chain.resolveWallet(phrase))
    assert.strictEqual(first.reason, "WalletNotFound")
    const key = (yield* Effect.orDie(deriveKeys(phrase))).find((k) => k.kind === "ton")!
    const address = walletContract("v5r1", key.key.publicKey, -239).address.toString({
      bounceable: false,
      urlSafe: true
    })
    yield* faucet.fund(address, (ton * TON) as Nanoton)
    return yield* chain.resolveWallet(phrase)
  })

const transferClaim = (orderId: string, walletAddress: string, to: string, amount: bigint): NewDirectPurchase => ({
  orderId,
  kind: "transfer",
  fingerprint: fingerprint(),
  network: "sandbox",
  walletAddress,
  walletVersion: "v5r1",
  recipient: to,
  amount: amount as Nanoton,
  units: null,
  comment: null
})

/** Polls the record until it is done or failed. */
const settled = (orderId: string) =>
  Effect.gen(function* () {
    const records = yield* DirectPurchaseRecords
    for (let i = 0; i < 120; i++) {
      const found = Option.getOrThrow(Array.head(yield* records.findByOrderId(orderId)))
      if (found.state === "done" || found.state === "failed") return found
      yield* Effect.sleep("250 millis")
    }
    return yield* Effect.die(new Error(`${orderId} was not settled`))
  })

layer(World, { timeout: "180 seconds", excludeTestServices: true })("worker reconcile job", (it) => {
  it.effect(
    "settles a paid unknown payment (done, once), one never signed (failed) and a dead process's sent one (done)",
    () =>
      Effect.gen(function* () {
        const chain = yield* Blockchain
        const records = yield* DirectPurchaseRecords
        // The jobs start; the payments job makes its first (immediate) round on an empty table, then sleeps an hour.
        yield* Layer.build(WorkerJobsLive.pipe(Layer.provide(Layer.mergeAll(Settings, Silent, Gifts))))
        yield* Effect.sleep("1 second")

        // A transfer whose answer was lost after it was sent: signed, sent, recorded as unknown.
        const payer = yield* fundedWallet(40n)
        const paid = `rj-paid-${fingerprint().slice(0, 8)}`
        const to = freshAddress()
        const paidId = (yield* records.claim(transferClaim(paid, payer.address, to, 2n * TON), new Date())).record.id
        const signed = yield* chain.prepareTransfer(payer, { to, amount: (2n * TON) as Nanoton })
        yield* records.transition(
          paidId,
          ["pending"],
          "sending",
          { prepared: signed, payTo: to, payAmount: signed.amount, lock: true },
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

        // One whose process died before anything was signed.
        const abandoned = `rj-abandoned-${fingerprint().slice(0, 8)}`
        const abandonedId = (yield* records.claim(
          transferClaim(abandoned, payer.address, freshAddress(), TON),
          new Date()
        )).record.id
        yield* records.transition(abandonedId, ["pending"], "unknown", {}, new Date())

        // A process that died right after sending: left `sending`, untouched past PAYMENT_STALE_AFTER.
        const other = yield* fundedWallet(10n)
        const dead = `rj-dead-${fingerprint().slice(0, 8)}`
        const to2 = freshAddress()
        const deadId = (yield* records.claim(transferClaim(dead, other.address, to2, TON), new Date())).record.id
        const signed2 = yield* chain.prepareTransfer(other, { to: to2, amount: TON as Nanoton })
        yield* records.transition(
          deadId,
          ["pending"],
          "sending",
          { prepared: signed2, payTo: to2, payAmount: signed2.amount, lock: true },
          new Date()
        )
        yield* chain.send(signed2)

        const paidAfter = yield* settled(paid)
        assert.strictEqual(paidAfter.state, "done")
        assert.match(paidAfter.txHash ?? "", /^[0-9a-f]{64}$/)
        assert.isAbove(Number(paidAfter.fee), 0)
        assert.strictEqual(yield* chain.balance(payer.address), payer.balance - 2n * TON - paidAfter.fee!)

        const abandonedAfter = yield* settled(abandoned)
        assert.deepStrictEqual([abandonedAfter.state, abandonedAfter.errorReason], ["failed", "Abandoned"])

        const deadAfter = yield* settled(dead)
        assert.strictEqual(deadAfter.state, "done")
        assert.strictEqual(yield* chain.balance(other.address), other.balance - TON - deadAfter.fee!)

        // Nothing is sent twice: the rounds that follow leave the balances alone.
        yield* Effect.sleep("1 second")
        assert.strictEqual(yield* chain.balance(payer.address), payer.balance - 2n * TON - paidAfter.fee!)
        assert.strictEqual(yield* chain.balance(other.address), other.balance - TON - deadAfter.fee!)
      }).pipe(Effect.scoped)
  )
})
