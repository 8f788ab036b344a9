/**
 * The direct purchase use cases: stars, premium, TON top-up of a Telegram account and wallet-to-wallet
 * transfers, paid from the caller's own wallet. Checks run in DESIGN §8's order: fields (parsed by
 * `DirectRequests`, and the address here), the phrase and wallet, funds, then marketplace and chain.
 *
 * Exactly once per order id of a wallet: the record is claimed first (`DirectOrderIds` has the reuse
 * rule); an open one is reconciled on chain before anything else. A request answers within
 * `answerWithin`; a payment still running then finishes in the background.
 */
import { Clock, Context, Duration, Effect, Fiber, Layer, Option } from "effect"
import { Nanoton } from "../money/Nanoton.ts"
import { Blockchain, type Wallet, type WalletVersion } from "../ports/Blockchain.ts"
import { DirectPurchaseRecords, type DirectPurchaseRecord } from "../ports/DirectPurchaseRecords.ts"
import { Marketplace } from "../ports/Marketplace.ts"
import { deliveryOf } from "./DeliveryEvidence.ts"
import { randomToken, sha256Hasher } from "../Secrets.ts"
import { sumNanoton } from "./DirectPayment.ts"
import type {
  DirectCommon,
  DirectKind,
  DirectReceipt,
  PremiumPurchase,
  StarsPurchase,
  TonTopupPurchase,
  TonTransfer,
  WalletInfo,
  WalletInfoRequest
} from "./DirectPurchase.ts"
import { DirectPurchaseError } from "./DirectPurchaseError.ts"
import { makeOrderIds, orderPending } from "./DirectOrderIds.ts"
import { makeDirectReconciler } from "./DirectReconciler.ts"
import { makeMarketplacePurchase } from "./MarketplacePurchase.ts"
import { DirectSettings } from "./DirectSettings.ts"
import { fundingAddress, walletFailure } from "./DirectWallets.ts"
import { PayerAccounts } from "../ports/PayerAccounts.ts"

type Order = Effect.Effect<DirectReceipt, DirectPurchaseError>

/** The receipt of a `done` record; any field missing there is a storage bug. */
export const receiptOf = (record: DirectPurchaseRecord): DirectReceipt => {
  if (record.state !== "done" || record.payAmount === null || record.fee === null || record.txHash === null) {
    throw new Error(`direct order ${record.orderId} is ${record.state} without a complete payment`)
  }
  return {
    orderId: record.orderId,
    kind: record.kind,
    recipient: record.recipient,
    units: record.units,
    amount: record.amount,
    paid: record.payAmount,
    fee: record.fee,
    cost: sumNanoton(record.payAmount, record.fee),
    txHash: record.txHash,
    ref: record.ref,
    walletAddress: record.walletAddress,
    network: record.network,
    delivery: deliveryOf(record),
    deliveryNote: deliveryOf(record) === "paid" ? record.errorMessage : null
  }
}

export class DirectPurchases extends Context.Service<
  DirectPurchases,
  {
    readonly network: "mainnet" | "testnet" | "sandbox"
    readonly buyStars: (request: StarsPurchase) => Order
    readonly buyPremium: (request: PremiumPurchase) => Order
    /** /coin/buy: TON to a Telegram account through the marketplace. */
    readonly buyTonTopup: (request: TonTopupPurchase) => Order
    /** /coin/transfer: wallet to wallet, with an optional text comment. */
    readonly transfer: (request: TonTransfer) => Order
    /** /balance: the funded wallet of a phrase. */
    readonly walletInfo: (request: WalletInfoRequest) => Effect.Effect<WalletInfo, DirectPurchaseError>
    /** Settles the open orders under an order id (of any wallet: for operators); the records afterwards. */
    readonly reconcile: (orderId: string) => Effect.Effect<ReadonlyArray<DirectPurchaseRecord>>
    /** Settles up to `limit` open orders (`unknown`, or in flight and stale): for the worker and the CLI. */
    readonly reconcileOpen: (limit: number) => Effect.Effect<ReadonlyArray<DirectPurchaseRecord>>
    /** The latest order of a wallet under an order id. */
    readonly find: (walletAddress: string, orderId: string) => Effect.Effect<Option.Option<DirectPurchaseRecord>>
    /** Every record under an order id, of any wallet, newest first: for operators. */
    readonly findByOrderId: (orderId: string) => Effect.Effect<ReadonlyArray<DirectPurchaseRecord>>
  }
>()("core/direct/DirectPurchases") {
  /** Needs Blockchain, Marketplace, DirectPurchaseRecords and PayerAccounts; DirectSettings has defaults. */
  static readonly layer = Layer.effect(
    DirectPurchases,
    Effect.gen(function* () {
      const chain = yield* Blockchain
      const marketplace = yield* Marketplace
      const records = yield* DirectPurchaseRecords
      const payers = yield* PayerAccounts
      const settings = yield* DirectSettings
      const sha256Hex = yield* sha256Hasher
      const { pay, purchase } = makeMarketplacePurchase({ chain, marketplace, records, payers, settings })
      const reconciler = makeDirectReconciler({ chain, marketplace, records, settings })
      const orderIds = makeOrderIds({ records, settings, reconcile: reconciler.reconcileRecord })
      // Payments outlive the request that started them; closing the service waits for them.
      const background = yield* Effect.scope

      const resolve = (seed: DirectCommon["seed"], version: WalletVersion | undefined) =>
        chain
          .resolveWallet(seed, version === undefined ? {} : { version })
          .pipe(Effect.mapError((error) => walletFailure(error, version)))

      const newOrderId = Effect.map(randomToken(9), (token) => `d${Date.now().toString(36)}${token}`)

      /**
       * Wallet, claim, then `run` uninterruptibly in the service's scope: a dropped connection never
       * leaves a payment half done, and a payment still running at `answerWithin` goes on in the
       * background while the caller gets `OrderPending` (asking again gives the final result).
       */
      const execute = (
        kind: DirectKind,
        common: DirectCommon,
        fields: {
          readonly recipient: string
          readonly amount: Nanoton | null
          readonly units: number | null
          readonly comment: string | null
        },
        run: (record: DirectPurchaseRecord, wallet: Wallet) => Effect.Effect<DirectPurchaseRecord, DirectPurchaseError>
      ): Order =>
        Effect.gen(function* () {
          const started = yield* Clock.currentTimeMillis
          const wallet = yield* resolve(common.seed, common.walletVersion)
          const orderId = common.orderId ?? (yield* newOrderId)
          const fingerprint = yield* sha256Hex(
            JSON.stringify([
              kind,
              wallet.address,
              fields.recipient,
              fields.amount === null ? null : String(fields.amount),
              fields.units,
              fields.comment
            ])
          )
          const begun = yield* orderIds.begin({
            orderId,
            kind,
            fingerprint,
            network: chain.network,
            walletAddress: wallet.address,
            walletVersion: wallet.version,
            ...fields
          })
          if (begun._tag === "Done") {
            yield* Effect.logInfo("direct order repeated: stored result, nothing paid").pipe(
              Effect.annotateLogs({ orderId })
            )
            return receiptOf(begun.record)
          }
          yield* Effect.logInfo("direct order started").pipe(
            Effect.annotateLogs({ orderId, kind, wallet: wallet.address, version: wallet.version })
          )
          const running = yield* Effect.forkIn(Effect.uninterruptible(run(begun.record, wallet)), background)
          const left = Math.max(
            0,
            started + Duration.toMillis(settings.answerWithin) - (yield* Clock.currentTimeMillis)
          )
          const done = yield* Fiber.join(running).pipe(Effect.timeoutOption(left))
          if (Option.isNone(done)) {
            yield* Effect.logInfo("direct order still running at the answer deadline").pipe(
              Effect.annotateLogs({ orderId })
            )
            return yield* orderPending(orderId)
          }
          return receiptOf(done.value)
        })

      const buyStars = Effect.fn("DirectPurchases.buyStars")(function* (request: StarsPurchase) {
        return yield* execute(
          "stars",
          request,
          { recipient: request.username, amount: null, units: request.quantity, comment: null },
          (record, wallet) =>
            purchase(record, wallet, 0n, (payer) =>
              marketplace.quoteStars({ username: request.username, quantity: request.quantity, payer })
            )
        )
      })

      const buyPremium = Effect.fn("DirectPurchases.buyPremium")(function* (request: PremiumPurchase) {
        return yield* execute(
          "premium",
          request,
          { recipient: request.username, amount: null, units: request.months, comment: null },
          (record, wallet) =>
            purchase(record, wallet, 0n, (payer) =>
              marketplace.quotePremium({ username: request.username, months: request.months, payer })
            )
        )
      })

      const buyTonTopup = Effect.fn("DirectPurchases.buyTonTopup")(function* (request: TonTopupPurchase) {
        return yield* execute(
          "ton_topup",
          request,
          { recipient: request.username, amount: request.amount, units: null, comment: null },
          (record, wallet) =>
            purchase(record, wallet, request.amount, (payer) =>
              marketplace.quoteTonTopup({ username: request.username, amount: request.amount, payer })
            )
        )
      })

      const transfer = Effect.fn("DirectPurchases.transfer")(function* (request: TonTransfer) {
        // Still a field check (DESIGN §8): before the phrase is touched.
        const to = yield* chain
          .parseAddress(request.to)
          .pipe(
            Effect.mapError(
              () => new DirectPurchaseError({ reason: "InvalidRequest", message: "to is not a valid TON address" })
            )
          )
        const comment = request.comment ?? null
        return yield* execute(
          "transfer",
          request,
          { recipient: to, amount: request.amount, units: null, comment },
          (record, wallet) =>
            Effect.map(
              pay(record, wallet, { to, amount: request.amount, ...(comment === null ? {} : { comment }) }, "done"),
              (paid) => paid.record
            )
        )
      })

      const walletInfo = Effect.fn("DirectPurchases.walletInfo")(function* (request: WalletInfoRequest) {
        const found = yield* chain
          .resolveWallet(request.seed, request.walletVersion === undefined ? {} : { version: request.walletVersion })
          .pipe(
            Effect.map((wallet) => ({ _tag: "Found", wallet }) as const),
            Effect.catchIf(
              (e) => e.reason === "WalletNotFound" && e.addresses !== undefined && e.addresses.length > 0,
              (e) => Effect.succeed({ _tag: "Fresh", addresses: e.addresses ?? [] } as const)
            ),
            Effect.mapError((error) => walletFailure(error, request.walletVersion))
          )
        if (found._tag === "Found") {
          const w = found.wallet
          return {
            address: w.address,
            version: w.version,
            status: w.status,
            balance: w.balance,
            network: chain.network
          } satisfies WalletInfo
        }
        // A phrase never funded: where to send the first TON (either version works; wallets show W5 today).
        const shown = fundingAddress(found.addresses, request.walletVersion)!
        return {
          address: shown.address,
          version: shown.version,
          status: "uninit",
          balance: Nanoton.make(0n),
          network: chain.network,
          addresses: found.addresses
        } satisfies WalletInfo
      })

      return DirectPurchases.of({
        network: chain.network,
        buyStars,
        buyPremium,
        buyTonTopup,
        transfer,
        walletInfo,
        reconcile: reconciler.reconcile,
        reconcileOpen: reconciler.reconcileOpen,
        find: (walletAddress, orderId) => records.findLatest({ network: chain.network, walletAddress, orderId }),
        findByOrderId: records.findByOrderId
      })
    })
  )
}
