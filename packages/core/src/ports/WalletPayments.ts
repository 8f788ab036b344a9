/**
 * Records of the hot wallet's payments (account orders paid to the marketplace) and of the batches
 * that carry them: one external message, many payments. A batch and each payment's `Ref#`, recipient
 * and amount are stored together BEFORE the message is sent; from then on only that message may pay
 * them, until it is known not to have (expired, superseded, its action skipped).
 * Open batches (`signed`/`sent`) are bounded per wallet across every process: one for a seqno wallet
 * (its seqno allows no more), up to `slots` for a Highload Wallet V3 (query ids, never two alike open).
 */
import { Context, type Effect, type Option, Schema } from "effect"
import { Nanoton, type PreparedBatch } from "./Blockchain.ts"

export const WalletBatchState = Schema.Literals(["signed", "sent", "executed", "expired", "superseded"])
export type WalletBatchState = typeof WalletBatchState.Type

/**
 * `open`: carried by an open batch; `paid`: left the wallet once; `failed`: never paid. `held`: a payment
 * of the single-payment records that came before batches, whose result was never settled (migration
 * 0026): never paid again under its key and settled by an operator on its order, never by a batch.
 */
export const WalletPaymentState = Schema.Literals(["open", "paid", "failed", "held"])
export type WalletPaymentState = typeof WalletPaymentState.Type

export interface NewWalletPayment {
  /** The charge's exactly-once key (one per charge of an account order). */
  readonly key: string
  readonly walletAddress: string
  readonly kind: "stars" | "premium"
  readonly reqId: string
  readonly ref: string
  readonly payTo: string
  readonly amount: Nanoton
  readonly validUntil: number
}

export interface WalletPayment extends NewWalletPayment {
  readonly id: number
  readonly batchId: number | null
  readonly state: WalletPaymentState
  readonly txHash: string | null
  readonly error: string | null
  readonly createdAt: Date
  readonly updatedAt: Date
}

export interface WalletBatch {
  readonly id: number
  readonly network: string
  readonly walletAddress: string
  readonly state: WalletBatchState
  readonly prepared: PreparedBatch
  readonly txHash: string | null
  readonly fee: Nanoton | null
  readonly createdAt: Date
}

export class WalletBatchBusy extends Schema.TaggedError<WalletBatchBusy>()("WalletBatchBusy", {
  message: Schema.String
}) {}

export interface PaymentSettlement {
  readonly key: string
  readonly state: WalletPaymentState
  readonly txHash?: string | null
  readonly error?: string | null
}

export class WalletPayments extends Context.Service<
  WalletPayments,
  {
    /**
     * Stores the signed batch and its payments at once (a payment's earlier `failed` record under the
     * same key is replaced). Fails `WalletBatchBusy` when the wallet has `slots` open batches already
     * (always 1 for a message with a seqno, whatever is asked), another open batch has the same query
     * id, or a key is `open`, `paid` or `held` already: then nothing is stored and the message must not be sent.
     */
    readonly record: (
      network: string,
      prepared: PreparedBatch,
      payments: ReadonlyArray<NewWalletPayment>,
      now: Date,
      slots?: number
    ) => Effect.Effect<WalletBatch, WalletBatchBusy>
    readonly markSent: (batchId: number, now: Date) => Effect.Effect<void>
    /** Closes the batch (`executed`, `expired`, `superseded`) and settles its payments in one transaction. */
    readonly settle: (
      batchId: number,
      outcome: { readonly state: WalletBatchState; readonly txHash: string | null; readonly fee: Nanoton | null },
      payments: ReadonlyArray<PaymentSettlement>,
      now: Date
    ) => Effect.Effect<void>
    /** The wallet's open batches with their payments. */
    readonly openBatches: (
      walletAddress: string
    ) => Effect.Effect<ReadonlyArray<{ readonly batch: WalletBatch; readonly payments: ReadonlyArray<WalletPayment> }>>
    readonly find: (key: string) => Effect.Effect<Option.Option<WalletPayment>>
    /** The payments of these keys that exist, in one read (a batch's keys). */
    readonly findMany: (keys: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<WalletPayment>>
    readonly batch: (id: number) => Effect.Effect<Option.Option<WalletBatch>>
  }
>()("core/ports/WalletPayments") {}

export { Nanoton }
