/**
 * The chain half of a direct order, exactly once: take the wallet lock, sign one message, store it
 * (seqno, normalized external hash, valid_until) BEFORE it goes out, send it, then only look for that
 * message on chain. After a network error the same message is re-sent (the seqno stops a second
 * execution); a new one is never built. An outcome still open at the deadline is stored `unknown`.
 */
import { Clock, Duration, Effect, Result } from "effect"
import type { Nanoton } from "../money/Nanoton.ts"
import type {
  Blockchain,
  BlockchainError,
  PreparedTransfer,
  TransferRequest,
  TransferStatus,
  Wallet
} from "../ports/Blockchain.ts"
import type {
  DirectPurchasePatch,
  DirectPurchaseRecord,
  DirectPurchaseRecords
} from "../ports/DirectPurchaseRecords.ts"
import type { DirectState } from "./DirectPurchase.ts"
import { DirectPurchaseError } from "./DirectPurchaseError.ts"
import type { DirectSettingsShape } from "./DirectSettings.ts"

export interface PaymentDeps {
  readonly records: DirectPurchaseRecords["Service"]
  readonly chain: Blockchain["Service"]
  readonly settings: DirectSettingsShape
}

const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

/** Marks the record failed (nothing paid, lock released) and fails with `error` carrying the order id. */
export const failOrder = (
  records: DirectPurchaseRecords["Service"],
  record: DirectPurchaseRecord,
  from: ReadonlyArray<DirectState>,
  error: DirectPurchaseError,
  patch: DirectPurchasePatch = {}
) =>
  Effect.gen(function* () {
    // Reconciliation may have settled a record it took for abandoned (nothing signed): it is final already.
    yield* records
      .transition(
        record.id,
        from,
        "failed",
        {
          ...patch,
          errorReason: error.reason,
          errorMessage: error.message,
          completedAt: yield* now
        },
        yield* now
      )
      .pipe(
        Effect.catchTag("DirectRecordConflict", () => Effect.void),
        Effect.orDie
      )
    return yield* new DirectPurchaseError({
      reason: error.reason,
      message: error.message,
      orderId: record.orderId,
      outcome: "NotPaid",
      ...(error.marketplaceReason === undefined ? {} : { marketplaceReason: error.marketplaceReason })
    })
  })

/**
 * The record left `pending` under us: reconciliation took it for abandoned (untouched for `staleAfter`,
 * nothing signed) and settled it. Nothing was paid; the order id may run again.
 */
export const takenOver = (record: DirectPurchaseRecord) =>
  Effect.fail(
    new DirectPurchaseError({
      reason: "TransferFailed",
      message:
        "The order waited too long before paying and was closed as abandoned; nothing was paid, repeat the request",
      orderId: record.orderId,
      outcome: "NotPaid"
    })
  )

/** What a BlockchainError from signing means for the caller; nothing was sent. */
const prepareFailure = (error: BlockchainError): DirectPurchaseError => {
  switch (error.reason) {
    case "InsufficientFunds":
      return new DirectPurchaseError({ reason: "InsufficientFunds", message: error.message })
    case "InvalidAddress":
    case "InvalidAmount":
      return new DirectPurchaseError({ reason: "InvalidRequest", message: error.message })
    case "InvalidPayload":
      return new DirectPurchaseError({
        reason: "MarketplaceRejected",
        message: "The marketplace sent a payment message that cannot be signed"
      })
    case "Busy":
      return new DirectPurchaseError({
        reason: "OrderPending",
        message: "Another payment from this wallet is still in flight; retry when it has finished"
      })
    case "Overloaded":
      return new DirectPurchaseError({ reason: "ServiceBusy", message: error.message })
    case "Frozen":
    case "InvalidMnemonic":
    case "WalletNotFound":
    case "VersionMismatch":
      return new DirectPurchaseError({ reason: "WalletInvalid", message: error.message })
    case "Rejected":
    case "NetworkError":
    case "Timeout":
      return new DirectPurchaseError({ reason: "TransferFailed", message: `Nothing was sent: ${error.message}` })
  }
}

/** A final verdict that is not a payment: nothing left the wallet but, perhaps, a network fee. */
const notPaid = (status: Extract<TransferStatus, { _tag: "Failed" | "Expired" }>): DirectPurchaseError =>
  status._tag === "Expired"
    ? new DirectPurchaseError({
        reason: "TransferFailed",
        message: "The transfer expired before the network executed it; nothing was paid, the order may be retried"
      })
    : status.reason === "SkippedAction"
      ? new DirectPurchaseError({
          reason: "InsufficientFunds",
          message: "The wallet ran the transfer but skipped it for lack of funds; only the network fee was charged"
        })
      : status.reason === "Superseded"
        ? new DirectPurchaseError({
            reason: "TransferFailed",
            message:
              "Another message of this wallet used the same seqno (was the phrase used elsewhere at the same time?); nothing was paid"
          })
        : new DirectPurchaseError({
            reason: "TransferFailed",
            message: `The transfer did not execute (${status.reason}); nothing was paid`
          })

export interface Paid {
  readonly record: DirectPurchaseRecord
  readonly prepared: PreparedTransfer
}

export const makeDirectPayment = ({ chain, records, settings }: PaymentDeps) => {
  /**
   * Looks for the stored message until a verdict or the deadline. `resend`: the last send had no
   * answer, so the same BOC goes out again while nothing is seen (always safe: one seqno, one execution).
   */
  const watch = (prepared: PreparedTransfer, deadline: number, resend: boolean) =>
    Effect.gen(function* () {
      let again = resend
      while (true) {
        const status = yield* Effect.result(chain.confirm(prepared))
        if (Result.isSuccess(status) && status.success._tag !== "Pending") return status.success
        if ((yield* Clock.currentTimeMillis) >= deadline) return undefined
        if (again) {
          const sent = yield* Effect.result(chain.send(prepared))
          again = Result.isFailure(sent) && sent.failure.reason !== "Rejected"
        }
        yield* Effect.sleep(settings.pollEvery)
      }
    })

  /**
   * Pays `request` from `wallet` for a `pending` record. Transfers end `done`; purchases end `sent`
   * (paid on chain, the marketplace still has to deliver). Failures leave the record `failed` (nothing
   * paid) or `unknown` (outcome open) and say which in `outcome`. Run it uninterruptibly.
   */
  const pay = Effect.fn("DirectPayment.pay")(function* (
    record: DirectPurchaseRecord,
    wallet: Wallet,
    request: TransferRequest,
    finalState: "done" | "sent"
  ) {
    const orderId = record.orderId
    const locked = yield* records
      .transition(
        record.id,
        ["pending"],
        "sending",
        {
          lock: true,
          payTo: request.to,
          payAmount: request.amount
        },
        yield* now
      )
      .pipe(Effect.result)
    if (Result.isFailure(locked)) {
      if (locked.failure._tag === "DirectRecordConflict") return yield* takenOver(record)
      return yield* failOrder(
        records,
        record,
        ["pending"],
        new DirectPurchaseError({
          reason: "OrderPending",
          message: "Another payment from this wallet is still in flight; retry when it has finished"
        })
      )
    }
    const prepared = yield* Effect.result(chain.prepareTransfer(wallet, request))
    if (Result.isFailure(prepared)) {
      return yield* failOrder(records, locked.success, ["sending"], prepareFailure(prepared.failure))
    }
    const message = prepared.success
    // Stored before it can go out: from here on only this message may ever pay for this order.
    yield* records.transition(record.id, ["sending"], "sending", { prepared: message }, yield* now).pipe(Effect.orDie)
    yield* Effect.logInfo("direct payment signed").pipe(
      Effect.annotateLogs({ orderId, wallet: message.wallet, seqno: message.seqno, externalHash: message.externalHash })
    )
    const sent = yield* Effect.result(chain.send(message))
    if (Result.isSuccess(sent))
      yield* records.transition(record.id, ["sending"], "sent", {}, yield* now).pipe(Effect.orDie)
    else {
      yield* Effect.logWarning("direct payment send had no clean answer; looking for it on chain").pipe(
        Effect.annotateLogs({ orderId, reason: sent.failure.reason })
      )
    }
    const deadline = (yield* Clock.currentTimeMillis) + Duration.toMillis(settings.confirmWithin)
    const verdict = yield* watch(message, deadline, Result.isFailure(sent) && sent.failure.reason !== "Rejected")
    if (verdict === undefined) {
      const error = new DirectPurchaseError({
        reason: "TransferFailed",
        message: `The network has not confirmed the transfer yet and it may still execute; order ${orderId} will be reconciled on chain, repeat the request with the same order_id for its result`,
        orderId,
        outcome: "Unknown"
      })
      yield* records
        .transition(
          record.id,
          ["sending", "sent"],
          "unknown",
          {
            errorReason: error.reason,
            errorMessage: error.message
          },
          yield* now
        )
        .pipe(Effect.orDie)
      return yield* error
    }
    if (verdict._tag !== "Confirmed") {
      return yield* failOrder(records, locked.success, ["sending", "sent"], notPaid(verdict), {
        ...(verdict._tag === "Failed" && verdict.txHash !== undefined ? { txHash: verdict.txHash } : {})
      })
    }
    const at = yield* now
    const paid = yield* records
      .transition(
        record.id,
        ["sending", "sent"],
        finalState,
        {
          txHash: verdict.txHash,
          fee: verdict.fee,
          lock: false,
          ...(finalState === "done" ? { completedAt: at } : {})
        },
        at
      )
      .pipe(Effect.orDie)
    yield* Effect.logInfo("direct payment confirmed on chain").pipe(
      Effect.annotateLogs({ orderId, txHash: verdict.txHash, fee: String(verdict.fee) })
    )
    return { record: paid, prepared: message } satisfies Paid
  })

  return { pay }
}

export const sumNanoton = (a: Nanoton, b: Nanoton): Nanoton => (a + b) as Nanoton
