/**
 * A graceful stop of batched hot-wallet payments: a batch already taken is finished and recorded,
 * while invoices only queued behind it are never signed (their orders go back unpaid, their invoices
 * are cancelled), whether the orders' fibers are interrupted or the service's own scope closes.
 */
import { assert, describe, it } from "@effect/vitest"
import { Context, Deferred, Effect, Exit, Fiber, Layer, Logger, Option, Scope } from "effect"
import { Blockchain, type PreparedBatch, Wallet } from "../src/ports/Blockchain.ts"
import { Delivered, Marketplace, type Nanoton, type PaymentRequest } from "../src/ports/Marketplace.ts"
import { PayerAccounts } from "../src/ports/PayerAccounts.ts"
import { WalletPayments } from "../src/ports/WalletPayments.ts"
import { makeMemoryWalletPayments } from "../src/testing/MemoryWalletPayments.ts"
import { BatchedPurchases } from "../src/wallet/BatchedPurchases.ts"
import type { WalletPurchase } from "../src/wallet/PurchaseOutcome.ts"
import { WalletBatches } from "../src/wallet/WalletBatches.ts"

const wallet = new Wallet({
  address: "EQhot",
  version: "v5r1",
  kind: "bip39",
  status: "active",
  balance: 10_000_000_000n as Nanoton,
  key: { publicKey: new Uint8Array(32), secretKey: new Uint8Array(64) }
})

const order = (name: string): WalletPurchase => ({ key: `key-${name}`, username: name, kind: "stars", units: 50 })

/**
 * A seqno wallet whose first message runs only when `gate` opens (it stays in flight until then),
 * and a marketplace whose invoice for user `x` has Ref# `Rx`; both keep what they were asked.
 */
const makeWorld = Effect.gen(function*() {
  const gate = yield* Deferred.make<void>()
  const firstSigned = yield* Deferred.make<void>()
  const signed: Array<PreparedBatch> = []
  const cancelled: Array<string> = []
  const chain: Pick<Blockchain["Service"], "network" | "batchLimit" | "prepareBatch" | "send" | "discard" | "confirmBatch" | "outgoing"> = {
    network: "sandbox",
    batchLimit: () => 255,
    prepareBatch: (w, requests) =>
      Effect.gen(function*() {
        const prepared: PreparedBatch = {
          wallet: w.address,
          seqno: signed.length,
          createdAt: 1_800_000_000,
          validUntil: 1_800_000_600,
          externalHash: `msg-${signed.length}`,
          boc: `boc-${signed.length}`,
          transfers: requests.map((r) => ({ to: r.to, amount: r.amount, bodyHash: r.payload ?? "" }))
        }
        signed.push(prepared)
        yield* Deferred.succeed(firstSigned, undefined)
        return prepared
      }),
    send: () => Effect.void,
    discard: () => Effect.void,
    confirmBatch: (prepared) =>
      Effect.as(
        prepared.seqno === 0 ? Deferred.await(gate) : Effect.void,
        { _tag: "Executed", txHash: `tx-${prepared.seqno}`, lt: "1", fee: 1_000_000n as Nanoton, utime: 1_800_000_001, sent: prepared.transfers.map(() => true) } as const
      ),
    outgoing: () => Effect.succeed([])
  }
  const invoice = (username: string): PaymentRequest => ({
    kind: "stars",
    reqId: `req-${username}`,
    amount: 100_000_000n as Nanoton,
    address: "EQfragment",
    payload: `Ref#R${username}`,
    ref: `R${username}`,
    comment: "",
    validUntil: 1_800_000_600
  })
  const market: Pick<Marketplace["Service"], "quoteStars" | "quotePremium" | "confirm" | "cancel"> = {
    quoteStars: (r) => Effect.succeed(invoice(r.username)),
    quotePremium: (r) => Effect.succeed(invoice(r.username)),
    confirm: (r) => Effect.succeed(Delivered(r.reqId, r.ref)),
    cancel: (_kind, reqId) => Effect.sync(() => void cancelled.push(reqId))
  }
  const records = makeMemoryWalletPayments()
  const ports = Layer.mergeAll(
    // The only calls batched purchases make of the chain and the marketplace.
    Layer.succeed(Blockchain)(chain as Blockchain["Service"]),
    Layer.succeed(Marketplace)(market as Marketplace["Service"]),
    Layer.succeed(WalletPayments)(records),
    Layer.succeed(PayerAccounts)({ describe: (w) => Effect.succeed({ address: w.address, publicKey: "00", walletStateInit: "" }) })
  )
  const layer = BatchedPurchases.layer.pipe(Layer.provide(WalletBatches.layer), Layer.provideMerge(ports))
  /** The refs each signed message carries, one list per message. */
  const refsSigned = () => signed.map((m) => m.transfers.map((t) => t.bodyHash.replace("Ref#", "")))
  return { gate, firstSigned, layer, records, refsSigned, cancelled }
})

/** Starts an order's purchase at once: it runs until it waits (a quote answered at once: queued). */
const start = (purchases: BatchedPurchases["Service"], name: string) =>
  Effect.forkChild(purchases.buy(wallet, order(name)), { startImmediately: true })

/** The log lines of the effect, kept to read what a stop said. */
const withLines = (lines: Array<string>) =>
  Effect.provide(Logger.layer([Logger.make(({ message }) => void lines.push(Array.isArray(message) ? message.join(" ") : String(message)))]))

describe("a graceful stop of batched hot-wallet payments", () => {
  it.effect("orders stopped while queued are never signed; the batch in flight is finished once", () => {
    const lines: Array<string> = []
    return Effect.gen(function*() {
      const world = yield* makeWorld
      const scope = yield* Scope.make()
      const purchases = Context.get(yield* Layer.buildWithScope(world.layer, scope), BatchedPurchases)
      const a = yield* start(purchases, "a")
      yield* Deferred.await(world.firstSigned)
      const queued = [yield* start(purchases, "b"), yield* start(purchases, "c")]
      // The stop reaches b and c while a's message is in flight: each fiber ends without waiting for it.
      for (const fiber of queued) {
        yield* Fiber.interrupt(fiber)
        assert.isTrue(Exit.hasInterrupts(yield* Fiber.await(fiber)))
      }
      // An order not stopped joins the next batch, which the abandoned invoices no longer take room in.
      const e = yield* start(purchases, "e")
      yield* Deferred.succeed(world.gate, undefined)
      assert.strictEqual((yield* Fiber.join(a))._tag, "Delivered")
      assert.strictEqual((yield* Fiber.join(e))._tag, "Delivered")
      assert.deepStrictEqual(world.refsSigned(), [["Ra"], ["Re"]])
      for (const name of ["b", "c"]) assert.isTrue(Option.isNone(yield* world.records.find(`key-${name}`)))
      assert.sameMembers(world.cancelled, ["req-b", "req-c"])
      const paid = yield* world.records.findMany(["key-a", "key-e"])
      assert.deepStrictEqual(paid.map((p) => [p.key, p.state, p.txHash]), [["key-a", "paid", "tx-0"], ["key-e", "paid", "tx-1"]])
      yield* Scope.close(scope, Exit.succeed(undefined))
      assert.include(lines, "wallet payments stopped: 2 queued invoices handed back unsigned")
    }).pipe(withLines(lines))
  })

  it.effect("when the service itself stops, queued orders answer in flight unsigned; the batch in flight is finished once", () => {
    const lines: Array<string> = []
    return Effect.gen(function*() {
      const world = yield* makeWorld
      const scope = yield* Scope.make()
      const purchases = Context.get(yield* Layer.buildWithScope(world.layer, scope), BatchedPurchases)
      const a = yield* start(purchases, "a")
      yield* Deferred.await(world.firstSigned)
      const queued = [yield* start(purchases, "b"), yield* start(purchases, "c")]
      const closing = yield* Effect.forkChild(Scope.close(scope, Exit.succeed(undefined)))
      // Answered while a's message is still in flight: the collector stops before the batch is awaited.
      for (const fiber of queued) assert.strictEqual((yield* Fiber.join(fiber))._tag, "InFlight")
      yield* Deferred.succeed(world.gate, undefined)
      yield* Fiber.join(closing)
      assert.strictEqual((yield* Fiber.join(a))._tag, "Delivered")
      // A purchase started once the service has stopped is handed back at once, never signed.
      assert.strictEqual((yield* purchases.buy(wallet, order("late")))._tag, "InFlight")
      assert.deepStrictEqual(world.refsSigned(), [["Ra"]])
      assert.sameMembers(world.cancelled, ["req-b", "req-c", "req-late"])
      assert.strictEqual(Option.getOrThrow(yield* world.records.find("key-a")).state, "paid")
      assert.include(lines, "wallet payments stopped: 2 queued invoices handed back unsigned")
    }).pipe(withLines(lines))
  })
})
