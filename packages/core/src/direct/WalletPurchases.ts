/**
 * The wallet road: purchases the buyer's own wallet signs (TON Connect), so no phrase ever reaches
 * the service. `quote` opens Fragment's invoice for the buyer's account and answers the message to
 * sign; `report` takes the signed message back and hands it to Fragment (`confirmReq`); `status` and
 * `settleOpen` follow each quote on chain (the wallet's message with its `Ref#` and exact amount,
 * found whether or not it was reported) and read delivery as the seed road does. Every state change
 * is decided by `WalletSettlement` and written conditionally, so each final state happens once.
 */
import { Clock, Context, Duration, Effect, Layer, Option } from "effect"
import { Blockchain } from "../ports/Blockchain.ts"
import { Marketplace, type DeliveryState, type PaymentRequest } from "../ports/Marketplace.ts"
import { WalletAccounts } from "../ports/WalletAccounts.ts"
import { type WalletQuote, WalletQuotes } from "../ports/WalletQuotes.ts"
import { randomToken, sha256Hex } from "../Secrets.ts"
import { DirectPurchaseError, invalidRequest } from "./DirectPurchaseError.ts"
import { DirectSettings } from "./DirectSettings.ts"
import { marketplaceFailure } from "./MarketplacePurchase.ts"
import type { WalletQuoteRequest, WalletReportRequest, WalletStatusRequest } from "./WalletRequests.ts"
import {
  decideLatePayment,
  decideQuote,
  decideReport,
  decideRepeat,
  isFinal,
  isQuotePayment,
  type QuoteDecision
} from "./WalletSettlement.ts"

/** How long after `validUntil` the chain must have moved before an unpaid quote is settled. */
const EXPIRY_MARGIN_SECONDS = 5
/** How far before a quote's creation its wallet's history is read (clocks differ a little). */
const LOOKBACK_SECONDS = 120

const purchaseKindOf = (kind: WalletQuote["kind"]) => (kind === "ton_topup" ? "ton" : kind)

export class WalletPurchases extends Context.Service<
  WalletPurchases,
  {
    readonly quote: (request: WalletQuoteRequest) => Effect.Effect<WalletQuote, DirectPurchaseError>
    readonly report: (request: WalletReportRequest) => Effect.Effect<WalletQuote, DirectPurchaseError>
    readonly status: (request: WalletStatusRequest) => Effect.Effect<WalletQuote, DirectPurchaseError>
    /** Follows every open quote once (the worker's round): found payments, deliveries, expiries. */
    readonly settleOpen: (limit: number) => Effect.Effect<number>
  }
>()("core/direct/WalletPurchases") {
  static readonly layer = Layer.effect(
    WalletPurchases,
    Effect.gen(function* () {
      const chain = yield* Blockchain
      const marketplace = yield* Marketplace
      const payers = yield* WalletAccounts
      const quotes = yield* WalletQuotes
      const settings = yield* DirectSettings
      const nowDate = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))
      const nowSeconds = Effect.map(Clock.currentTimeMillis, (ms) => Math.floor(ms / 1000))

      /** The marketplace's word on a paid quote; a failed read is no evidence (asked again later). */
      const deliveryOf = (quote: WalletQuote) =>
        marketplace.confirm({ kind: purchaseKindOf(quote.kind), reqId: quote.reqId, ref: quote.ref }).pipe(
          Effect.map((state): DeliveryState | undefined => state),
          Effect.catch(() => Effect.succeed(undefined))
        )

      /** The quote's payments that left its wallet, oldest first. */
      const paymentsOf = (quote: WalletQuote) =>
        Effect.gen(function* () {
          const wallet = yield* chain.parseAddress(quote.walletAddress)
          const since = Math.floor(quote.createdAt.getTime() / 1000) - LOOKBACK_SECONDS
          const payments = (yield* chain.outgoing(wallet, since))
            .filter((payment) => isQuotePayment(quote, payment))
            .toSorted((a, b) => a.utime - b.utime)
          return { wallet, payments }
        })

      /** One look at chain and marketplace, and the decision applied; the quote as it is afterwards. */
      const step = Effect.fn("WalletPurchases.step")(function* (quote: WalletQuote) {
        const { wallet, payments } = yield* paymentsOf(quote)
        const account = yield* chain.accountState(wallet)
        const now = yield* nowSeconds
        const delivery = quote.state === "paid" ? yield* deliveryOf(quote) : undefined
        const decision = decideQuote(quote, {
          payments,
          chainTime: account.syncTime ?? now,
          now,
          marginSeconds: EXPIRY_MARGIN_SECONDS,
          deliverySeconds: Math.ceil(Duration.toSeconds(settings.deliveryWithin)),
          ...(delivery === undefined ? {} : { delivery })
        })
        return yield* apply(quote, decision)
      })

      /** A decision written conditionally (from the state it was made in); the quote afterwards. */
      const apply = Effect.fn("WalletPurchases.apply")(function* (quote: WalletQuote, decision: QuoteDecision) {
        if (decision._tag === "Stay") return quote
        const moved = yield* quotes.settle(quote.id, [quote.state], decision.to, decision.patch, yield* nowDate)
        if (Option.isSome(moved)) {
          yield* Effect.logInfo("wallet order moved").pipe(
            Effect.annotateLogs({ orderId: quote.orderId, from: quote.state, to: decision.to })
          )
          return moved.value
        }
        // another process moved it first: read what it decided
        return Option.getOrElse(yield* quotes.findLatest(quote), () => quote)
      })

      /** Follows a quote until it stays put (at most: found paid, then delivery read). */
      const follow = (quote: WalletQuote) =>
        Effect.gen(function* () {
          let current = quote
          for (let round = 0; round < 3 && !isFinal(current.state); round++) {
            const next = yield* step(current).pipe(
              Effect.catchTag("BlockchainError", (error) =>
                Effect.as(
                  Effect.logWarning("wallet order not followed: the chain did not answer").pipe(
                    Effect.annotateLogs({ orderId: current.orderId, error: error.message })
                  ),
                  current
                )
              )
            )
            if (next.state === current.state) return next
            current = next
          }
          return current
        })

      const orderOf = Effect.fn("WalletPurchases.orderOf")(function* (request: WalletStatusRequest) {
        const walletAddress = yield* payers.rawAddress(request.address)
        if (walletAddress === undefined) return yield* invalidRequest("address is not a TON address")
        const found = yield* quotes.findLatest({ network: chain.network, walletAddress, orderId: request.orderId })
        if (Option.isNone(found)) {
          return yield* new DirectPurchaseError({
            reason: "OrderNotFound",
            message: `No quote under order_id ${request.orderId} for this wallet`,
            orderId: request.orderId
          })
        }
        return found.value
      })

      const invoiceFor = (request: WalletQuoteRequest, payer: WalletQuote["account"]) => {
        switch (request.kind) {
          case "stars":
            return marketplace.quoteStars({
              username: request.username,
              quantity: request.quantity,
              payer,
              batched: true
            })
          case "premium":
            return marketplace.quotePremium({
              username: request.username,
              months: request.months,
              payer,
              batched: true
            })
          case "ton_topup":
            return marketplace.quoteTonTopup({ username: request.username, amount: request.amount, payer })
        }
      }

      const quote = Effect.fn("WalletPurchases.quote")(function* (request: WalletQuoteRequest) {
        const account = yield* payers.verify(request.account).pipe(Effect.mapError(invalidRequest))
        const orderId = request.orderId ?? `w${Date.now().toString(36)}${yield* randomToken(9)}`
        const units = request.kind === "stars" ? request.quantity : request.kind === "premium" ? request.months : null
        const amount = request.kind === "ton_topup" ? request.amount : null
        const fingerprint = yield* sha256Hex(
          JSON.stringify([
            request.kind,
            account.address,
            request.username,
            units,
            amount === null ? null : String(amount)
          ])
        )
        const key = { network: chain.network, walletAddress: account.address, orderId }
        const busy = new DirectPurchaseError({
          reason: "OrderPending",
          message: `Order ${orderId} of this wallet has a quote that may still be paid; ask its status, or use another order_id`,
          orderId
        })
        const previous = yield* quotes.findLatest(key)
        let replacing: WalletQuote | undefined
        if (Option.isSome(previous)) {
          const existing = yield* follow(previous.value)
          const recent =
            existing.settledAt !== null &&
            (yield* Clock.currentTimeMillis) - existing.settledAt.getTime() < Duration.toMillis(settings.replayWithin)
          const repeat = decideRepeat(existing, fingerprint, yield* nowSeconds, recent)
          if (repeat === "replay") return existing
          if (repeat === "busy") return yield* busy
          replacing = existing
        }
        const invoice: PaymentRequest = yield* invoiceFor(request, account).pipe(Effect.mapError(marketplaceFailure))
        const inserted = yield* quotes.insert(
          {
            ...key,
            account,
            kind: request.kind,
            fingerprint,
            recipient: request.username,
            units,
            amount,
            reqId: invoice.reqId,
            ref: invoice.ref,
            payTo: invoice.address,
            payAmount: invoice.amount,
            payload: invoice.payload,
            validUntil: invoice.validUntil
          },
          yield* nowDate,
          replacing
        )
        if (inserted._tag === "Inserted") return inserted.quote
        // another request under the same id won the race: this invoice is never answered
        yield* marketplace.cancel(invoice.kind, invoice.reqId).pipe(Effect.ignore)
        if (inserted.quote.fingerprint === fingerprint && !isFinal(inserted.quote.state)) return inserted.quote
        return yield* busy
      })

      const report = Effect.fn("WalletPurchases.report")(function* (
        request: WalletReportRequest
      ): Effect.fn.Return<WalletQuote, DirectPurchaseError> {
        const found = yield* orderOf(request)
        if ((yield* payers.signer(request.boc)) !== found.walletAddress) {
          return yield* invalidRequest(
            "boc must be the signed message of the quoted wallet (its external message, base64)"
          )
        }
        const decision = decideReport(found, request.boc)
        if (decision === "second") {
          return yield* new DirectPurchaseError({
            reason: "SecondSignature",
            message:
              `Order ${found.orderId} already has a signed message; this second one was not reported to the marketplace. ` +
              "Do not broadcast it: the order is paid once by the first",
            orderId: found.orderId
          })
        }
        if (decision === "same") return yield* follow(found)
        const stored = yield* quotes.report(found.id, request.boc, yield* nowDate)
        if (Option.isNone(stored)) return yield* report(request) // a concurrent report stored one first
        const state = yield* marketplace
          .confirm({
            kind: purchaseKindOf(found.kind),
            reqId: found.reqId,
            ref: found.ref,
            boc: request.boc,
            payer: found.account
          })
          .pipe(Effect.option)
        const confirm = Option.match(state, {
          onNone: () => "unsent" as const,
          onSome: (s) => (s._tag === "Delivered" ? ("accepted" as const) : s.confirm)
        })
        const noted = yield* quotes.settle(
          found.id,
          [stored.value.state],
          stored.value.state,
          { confirm },
          yield* nowDate
        )
        return yield* follow(Option.getOrElse(noted, () => stored.value))
      })

      /** An expired quote asked about: a payment made after its deadline is named (once) if one left the wallet. */
      const lateLook = (quote: WalletQuote) =>
        paymentsOf(quote).pipe(
          Effect.flatMap(({ payments }) => apply(quote, decideLatePayment(quote, payments))),
          Effect.catchTag("BlockchainError", () => Effect.succeed(quote))
        )

      const status = Effect.fn("WalletPurchases.status")(function* (request: WalletStatusRequest) {
        const quote = yield* follow(yield* orderOf(request))
        return quote.state === "expired" && quote.txHash === null ? yield* lateLook(quote) : quote
      })

      const settleOpen = (limit: number) =>
        Effect.gen(function* () {
          const open = yield* quotes.listOpen(limit)
          let settled = 0
          for (const quote of open) {
            const after = yield* follow(quote)
            if (isFinal(after.state)) settled++
          }
          return settled
        })

      return WalletPurchases.of({ quote, report, status, settleOpen })
    })
  )
}
