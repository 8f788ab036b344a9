/**
 * A hot wallet and a marketplace for batched purchases, in memory: the wallet's first message stays
 * in flight until `gate` opens, every invoice is quoted at once, and what was signed is kept.
 */
import { Context, Deferred, type Duration, Effect, Layer, Scope } from "effect"
import { Blockchain, type PreparedBatch, Wallet, type WalletVersion } from "../../src/ports/Blockchain.ts"
import { Delivered, Marketplace, type Nanoton, type PaymentRequest } from "../../src/ports/Marketplace.ts"
import { PayerAccounts } from "../../src/ports/PayerAccounts.ts"
import { WalletPayments } from "../../src/ports/WalletPayments.ts"
import { makeMemoryWalletPayments } from "../../src/testing/MemoryWalletPayments.ts"
import { BatchedPurchases, type WalletPurchase } from "../../src/wallet/BatchedPurchases.ts"
import { BatchedPurchaseSettings } from "../../src/wallet/BatchedPurchaseSettings.ts"
import { WalletBatches, WalletBatchSettings } from "../../src/wallet/WalletBatches.ts"

export const walletOf = (version: WalletVersion) =>
  new Wallet({
    address: "EQhot",
    version,
    kind: "bip39",
    status: "active",
    balance: 10_000_000_000n as Nanoton,
    key: { publicKey: new Uint8Array(32), secretKey: new Uint8Array(64) }
  })

export const order = (name: string): WalletPurchase => ({
  key: `key-${name}`,
  username: name,
  kind: "stars",
  units: 50
})

export interface BatchWorldOptions {
  /** Payments per message (the wallet allows 255). */
  readonly batchLimit?: number
  /** Messages of a Highload V3 in flight at once. */
  readonly parallel?: number
  /** Beside messages in flight, the longest a further one waits to fill its batch (default zero: not at all). */
  readonly fillWithin?: Duration.Duration
  /** How many of the first messages stay in flight until `gate` opens (default 1). */
  readonly held?: number
  /** Users whose invoices are quoted only once `quotesGate` opens (still quoting until then). */
  readonly slowQuotes?: ReadonlyArray<string>
}

/**
 * A wallet whose first message (first `held` messages) runs only when `gate` opens (it stays in flight until then),
 * and a marketplace whose invoice for user `x` has Ref# `Rx`; both keep what they were asked.
 */
export const makeBatchWorld = (options: BatchWorldOptions = {}) =>
  Effect.gen(function* () {
    const gate = yield* Deferred.make<void>()
    const quotesGate = yield* Deferred.make<void>()
    const firstSigned = yield* Deferred.make<void>()
    const signed: Array<PreparedBatch> = []
    const cancelled: Array<string> = []
    const chain: Pick<
      Blockchain["Service"],
      "network" | "batchLimit" | "prepareBatch" | "send" | "discard" | "confirmBatch" | "outgoing"
    > = {
      network: "sandbox",
      batchLimit: () => 255,
      prepareBatch: (w, requests) =>
        Effect.gen(function* () {
          const prepared: PreparedBatch = {
            wallet: w.address,
            seqno: signed.length,
            ...(w.version === "highload-v3" ? { queryId: signed.length } : {}),
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
        Effect.as(prepared.seqno < (options.held ?? 1) ? Deferred.await(gate) : Effect.void, {
          _tag: "Executed",
          txHash: `tx-${prepared.seqno}`,
          lt: "1",
          fee: 1_000_000n as Nanoton,
          utime: 1_800_000_001,
          sent: prepared.transfers.map(() => true)
        } as const),
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
      quoteStars: (r) =>
        Effect.as(
          options.slowQuotes?.includes(r.username) ? Deferred.await(quotesGate) : Effect.void,
          invoice(r.username)
        ),
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
      Layer.succeed(PayerAccounts)({
        describe: (w) => Effect.succeed({ address: w.address, publicKey: "00", walletStateInit: "" })
      })
    )
    const settings = Layer.mergeAll(
      Layer.succeed(BatchedPurchaseSettings)({
        ...BatchedPurchaseSettings.defaultValue(),
        batchLimit: options.batchLimit ?? 255,
        ...(options.fillWithin === undefined ? {} : { fillWithin: options.fillWithin })
      }),
      Layer.succeed(WalletBatchSettings)({ ...WalletBatchSettings.defaultValue(), parallel: options.parallel ?? 1 })
    )
    const layer = BatchedPurchases.layer.pipe(
      Layer.provide(WalletBatches.layer),
      Layer.provideMerge(ports),
      Layer.provide(settings)
    )
    /** The refs each signed message carries, one list per message. */
    const refsSigned = () => signed.map((m) => m.transfers.map((t) => t.bodyHash.replace("Ref#", "")))
    return { gate, quotesGate, firstSigned, layer, records, refsSigned, cancelled }
  })

/**
 * The service over `world` in a scope of its own (close it to stop the service), and `start`: one
 * order bought from `wallet` in a fiber of the caller's, started at once.
 */
export const servePurchases = (world: { readonly layer: Layer.Layer<BatchedPurchases> }, wallet: Wallet) =>
  Effect.gen(function* () {
    const scope = yield* Scope.make()
    const purchases = Context.get(yield* Layer.buildWithScope(world.layer, scope), BatchedPurchases)
    const start = (name: string) => Effect.forkChild(purchases.buy(wallet, order(name)), { startImmediately: true })
    return { scope, purchases, start }
  })
