/**
 * The direct purchase use cases: stars, premium, TON top-up of a Telegram account and wallet-to-wallet
 * transfers, paid from the caller's own wallet. Checks run in DESIGN §8's order: fields (parsed by
 * `DirectRequests`, and the address here), the phrase and wallet, funds, then marketplace and chain.
 *
 * Exactly once per order id: the record is claimed first (unique order id); a duplicate while it runs
 * answers `OrderPending`; a finished one answers its stored receipt and pays nothing; a failed one
 * (nothing paid) may run again; an `unknown` one is reconciled on chain before anything else.
 */
import { Clock, Context, Effect, Layer, Option } from "effect"
import { formatTon, type Nanoton } from "../money/Nanoton.ts"
import { Blockchain, type BlockchainError, type Wallet, type WalletVersion } from "../ports/Blockchain.ts"
import { DirectPurchaseRecords, type DirectPurchaseRecord, type NewDirectPurchase } from "../ports/DirectPurchaseRecords.ts"
import { deliveryOf } from "./DeliveryEvidence.ts"
import { Marketplace, type MarketplaceError, type PayerAccount, type PaymentRequest } from "../ports/Marketplace.ts"
import { randomToken, sha256Hex } from "../Secrets.ts"
import { makeDirectDelivery } from "./DirectDelivery.ts"
import { failOrder, makeDirectPayment, sumNanoton } from "./DirectPayment.ts"
import {
  type DirectCommon,
  type DirectKind,
  type DirectReceipt,
  type PremiumPurchase,
  type StarsPurchase,
  type TonTopupPurchase,
  type TonTransfer,
  type WalletInfo,
  type WalletInfoRequest
} from "./DirectPurchase.ts"
import { DirectPurchaseError } from "./DirectPurchaseError.ts"
import { makeDirectReconciler } from "./DirectReconciler.ts"
import { DirectSettings } from "./DirectSettings.ts"
import { PayerAccounts } from "./PayerAccounts.ts"

type Order = Effect.Effect<DirectReceipt, DirectPurchaseError>

const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

const walletFailure = (error: BlockchainError): DirectPurchaseError =>
  error.reason === "NetworkError" || error.reason === "Timeout"
    ? new DirectPurchaseError({ reason: "TransferFailed", message: `The blockchain could not be reached: ${error.message}`, outcome: "NotPaid" })
    : new DirectPurchaseError({ reason: "WalletInvalid", message: error.message })

// Every reason but a timeout answers as a marketplace error (spec §7); the marketplace's own reason rides along.
const marketplaceFailure = (error: MarketplaceError): DirectPurchaseError =>
  error.reason === "Timeout"
    ? new DirectPurchaseError({
      reason: "MarketplaceTimeout",
      message: `The marketplace did not answer in time; nothing was paid: ${error.message}`,
      marketplaceReason: error.reason
    })
    : new DirectPurchaseError({ reason: "MarketplaceRejected", message: error.message, marketplaceReason: error.reason })

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

export class DirectPurchases extends Context.Service<DirectPurchases, {
  readonly network: "mainnet" | "testnet" | "sandbox"
  readonly buyStars: (request: StarsPurchase) => Order
  readonly buyPremium: (request: PremiumPurchase) => Order
  /** /coin/buy: TON to a Telegram account through the marketplace. */
  readonly buyTonTopup: (request: TonTopupPurchase) => Order
  /** /coin/transfer: wallet to wallet, with an optional text comment. */
  readonly transfer: (request: TonTransfer) => Order
  /** /balance: the funded wallet of a phrase. */
  readonly walletInfo: (request: WalletInfoRequest) => Effect.Effect<WalletInfo, DirectPurchaseError>
  /** Settles an open order on chain (and with the marketplace); None for an unknown order id. */
  readonly reconcile: (orderId: string) => Effect.Effect<Option.Option<DirectPurchaseRecord>>
  /** Settles up to `limit` open orders (`unknown`, or in flight and stale): for the worker and the CLI. */
  readonly reconcileOpen: (limit: number) => Effect.Effect<ReadonlyArray<DirectPurchaseRecord>>
  readonly find: (orderId: string) => Effect.Effect<Option.Option<DirectPurchaseRecord>>
}>()("core/direct/DirectPurchases") {
  /** Needs Blockchain, Marketplace, DirectPurchaseRecords and PayerAccounts; DirectSettings has defaults. */
  static readonly layer = Layer.effect(
    DirectPurchases,
    Effect.gen(function*() {
      const chain = yield* Blockchain
      const marketplace = yield* Marketplace
      const records = yield* DirectPurchaseRecords
      const payers = yield* PayerAccounts
      const settings = yield* DirectSettings
      const payment = makeDirectPayment({ chain, records, settings })
      const delivery = makeDirectDelivery({ marketplace, records, settings })
      const reconciler = makeDirectReconciler({ chain, marketplace, records, settings })

      const resolve = (seed: DirectCommon["seed"], version: WalletVersion | undefined) =>
        chain.resolveWallet(seed, version === undefined ? {} : { version }).pipe(Effect.mapError(walletFailure))

      const newOrderId = Effect.map(randomToken(9), (token) => `d${Date.now().toString(36)}${token}`)

      /** Claims the order id: Run with a pending record, or Done with the stored receipt. */
      const begin = Effect.fn("DirectPurchases.begin")(function*(fresh: NewDirectPurchase) {
        for (let round = 0; round < 3; round++) {
          const claimed = yield* records.claim(fresh, yield* now)
          if (claimed._tag === "Claimed") return { _tag: "Run", record: claimed.record } as const
          const existing = yield* reconciler.reconcileRecord(claimed.record)
          const pending = () =>
            new DirectPurchaseError({
              reason: "OrderPending",
              message: `Order ${fresh.orderId} is being executed; repeat the request later for its result`,
              orderId: fresh.orderId
            })
          switch (existing.state) {
            case "done":
              if (existing.fingerprint !== fresh.fingerprint) {
                return yield* new DirectPurchaseError({
                  reason: "OrderIdReused",
                  message: `order_id ${fresh.orderId} was already used for a different request`,
                  orderId: fresh.orderId
                })
              }
              return { _tag: "Done", receipt: receiptOf(existing) } as const
            case "failed": {
              // Nothing was paid for it, so the order id may run again (once: restart is conditional).
              const restarted = yield* records.restart(fresh, yield* now)
              if (Option.isSome(restarted)) return { _tag: "Run", record: restarted.value } as const
              continue
            }
            default:
              return yield* pending()
          }
        }
        return yield* new DirectPurchaseError({ reason: "OrderPending", message: `Order ${fresh.orderId} is being executed`, orderId: fresh.orderId })
      })

      /** Wallet, claim, then `run` uninterruptibly: a dropped connection never leaves a payment half done. */
      const execute = (
        kind: DirectKind,
        common: DirectCommon,
        fields: { readonly recipient: string; readonly amount: Nanoton | null; readonly units: number | null; readonly comment: string | null },
        run: (record: DirectPurchaseRecord, wallet: Wallet) => Effect.Effect<DirectPurchaseRecord, DirectPurchaseError>
      ): Order =>
        Effect.gen(function*() {
          const wallet = yield* resolve(common.seed, common.walletVersion)
          const orderId = common.orderId ?? (yield* newOrderId)
          const fingerprint = yield* sha256Hex(JSON.stringify([
            kind,
            wallet.address,
            fields.recipient,
            fields.amount === null ? null : String(fields.amount),
            fields.units,
            fields.comment
          ]))
          const started = yield* begin({
            orderId,
            kind,
            fingerprint,
            network: chain.network,
            walletAddress: wallet.address,
            walletVersion: wallet.version,
            ...fields
          })
          if (started._tag === "Done") {
            yield* Effect.logInfo("direct order repeated: stored result, nothing paid").pipe(Effect.annotateLogs({ orderId }))
            return started.receipt
          }
          yield* Effect.logInfo("direct order started").pipe(
            Effect.annotateLogs({ orderId, kind, wallet: wallet.address, version: wallet.version })
          )
          const done = yield* Effect.uninterruptible(run(started.record, wallet))
          return receiptOf(done)
        })

      const fundsFor = (record: DirectPurchaseRecord, wallet: Wallet, amount: bigint): Effect.Effect<void, DirectPurchaseError> =>
        Effect.gen(function*() {
          if (wallet.balance >= amount + settings.feeReserve) return
          return yield* failOrder(records, record, ["pending"], new DirectPurchaseError({
            reason: "InsufficientFunds",
            message: `The wallet holds ${formatTon(wallet.balance)} TON, not enough for ${formatTon(amount)} TON plus network fees`
          }))
        })

      /** Quote, store the invoice, pay it exactly once, wait for delivery. */
      const purchase = (
        record: DirectPurchaseRecord,
        wallet: Wallet,
        needs: bigint,
        quote: (payer: PayerAccount) => Effect.Effect<PaymentRequest, MarketplaceError>
      ) =>
        Effect.gen(function*() {
          yield* fundsFor(record, wallet, needs)
          const payer = yield* payers.describe(wallet)
          const quoted = yield* Effect.result(quote(payer))
          if (quoted._tag === "Failure") return yield* failOrder(records, record, ["pending"], marketplaceFailure(quoted.failure))
          const invoice = quoted.success
          const withInvoice = yield* records.transition(record.orderId, ["pending"], "pending", {
            marketplaceReqId: invoice.reqId,
            ref: invoice.ref
          }, yield* now).pipe(Effect.orDie)
          const kind = invoice.kind
          const cancel = marketplace.cancel(kind, invoice.reqId).pipe(Effect.ignore)
          yield* fundsFor(withInvoice, wallet, invoice.amount).pipe(Effect.tapError(() => cancel))
          const paid = yield* payment.pay(withInvoice, wallet, {
            to: invoice.address,
            amount: invoice.amount,
            payload: invoice.payload,
            validUntil: invoice.validUntil
          }, "sent").pipe(Effect.tapError((e) => e.outcome === "NotPaid" ? cancel : Effect.void))
          yield* delivery.deliver(paid.record, paid.prepared, payer)
          return yield* records.find(record.orderId).pipe(Effect.map(Option.getOrThrow))
        })

      const buyStars = Effect.fn("DirectPurchases.buyStars")(function*(request: StarsPurchase) {
        return yield* execute("stars", request, { recipient: request.username, amount: null, units: request.quantity, comment: null }, (record, wallet) =>
          purchase(record, wallet, 0n, (payer) => marketplace.quoteStars({ username: request.username, quantity: request.quantity, payer })))
      })

      const buyPremium = Effect.fn("DirectPurchases.buyPremium")(function*(request: PremiumPurchase) {
        return yield* execute("premium", request, { recipient: request.username, amount: null, units: request.months, comment: null }, (record, wallet) =>
          purchase(record, wallet, 0n, (payer) => marketplace.quotePremium({ username: request.username, months: request.months, payer })))
      })

      const buyTonTopup = Effect.fn("DirectPurchases.buyTonTopup")(function*(request: TonTopupPurchase) {
        return yield* execute("ton_topup", request, { recipient: request.username, amount: request.amount, units: null, comment: null }, (record, wallet) =>
          purchase(record, wallet, request.amount, (payer) => marketplace.quoteTonTopup({ username: request.username, amount: request.amount, payer })))
      })

      const transfer = Effect.fn("DirectPurchases.transfer")(function*(request: TonTransfer) {
        // Still a field check (DESIGN §8): before the phrase is touched.
        const to = yield* chain.parseAddress(request.to).pipe(
          Effect.mapError(() => new DirectPurchaseError({ reason: "InvalidRequest", message: "to is not a valid TON address" }))
        )
        const comment = request.comment ?? null
        return yield* execute("transfer", request, { recipient: to, amount: request.amount, units: null, comment }, (record, wallet) =>
          Effect.map(
            payment.pay(record, wallet, { to, amount: request.amount, ...(comment === null ? {} : { comment }) }, "done"),
            (paid) => paid.record
          ))
      })

      const walletInfo = Effect.fn("DirectPurchases.walletInfo")(function*(request: WalletInfoRequest) {
        const wallet = yield* resolve(request.seed, request.walletVersion)
        return { address: wallet.address, version: wallet.version, status: wallet.status, balance: wallet.balance, network: chain.network } satisfies WalletInfo
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
        find: records.find
      })
    })
  )
}
