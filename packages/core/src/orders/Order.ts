import { Schema } from "effect"
import { OrderId, UserId } from "../ids.ts"
import { Uzs } from "../money/Uzs.ts"
import { type CauseIdPattern, causeIdAround } from "../ledger/BalanceMovement.ts"

export const OrderKind = Schema.Literals(["stars", "premium", "gift"])
export type OrderKind = typeof OrderKind.Type

/**
 * - queued:     charged, waiting for the worker (or for `nextAttemptAt` after a transient failure)
 * - processing: claimed by a worker
 * - completed:  delivered; keeps its charge
 * - failed:     permanently failed; its current charge was refunded exactly once
 * - needs_attention: its delivery stayed unknown past the limit (time and checks): no more retries,
 *   it keeps its charge until an operator checks again, completes it with a reference, or refunds it
 */
export const OrderStatus = Schema.Literals(["queued", "processing", "completed", "failed", "needs_attention"])
export type OrderStatus = typeof OrderStatus.Type

export const PremiumMonths = Schema.Literals([3, 6, 12])
export type PremiumMonths = typeof PremiumMonths.Type

/**
 * How a completed order's delivery is known:
 * - confirmed: the marketplace's answer could only be about this order (or an operator marked it done);
 * - paid_unconfirmed: settled on the order's own payment evidence (on chain, its `Ref#`, accepted by the
 *   marketplace) while the marketplace never confirmed the delivery for it; the evidence is kept.
 */
export const OrderDelivery = Schema.Literals(["confirmed", "paid_unconfirmed"])
export type OrderDelivery = typeof OrderDelivery.Type

/** What was ordered; exactly one of the kind's fields is set. */
export const OrderItem = Schema.Union([
  Schema.Struct({ kind: Schema.Literal("stars"), stars: Schema.Int }),
  Schema.Struct({ kind: Schema.Literal("premium"), months: PremiumMonths }),
  Schema.Struct({
    kind: Schema.Literal("gift"),
    giftId: Schema.String,
    /** The gift's price in stars at order time (the UZS price is this x the star price). */
    giftStars: Schema.Int,
    comment: Schema.NullOr(Schema.String),
    /** Sending account name from the GiftSender config (e.g. "user", "girl"); null = default. */
    senderAccount: Schema.NullOr(Schema.String),
    anonymous: Schema.Boolean
  })
])
export type OrderItem = typeof OrderItem.Type

/** What is known of an order whose delivery is unknown, for the operator who settles it. */
export const OrderEvidence = Schema.Struct({
  /** The payment's transaction hash, when it was seen on chain. */
  txHash: Schema.NullOr(Schema.String),
  /** The marketplace's reference of the purchase (Fragment `Ref#`) or the gift send marker. */
  ref: Schema.NullOr(Schema.String),
  /** The payment record's state at the last check (e.g. `unknown`, `sent`). */
  chainState: Schema.NullOr(Schema.String),
  /** The last answers of the marketplace / chain / gift service (newest last, a few). */
  answers: Schema.Array(Schema.String)
})
export type OrderEvidence = typeof OrderEvidence.Type

export const Order = Schema.Struct({
  id: OrderId,
  userId: UserId,
  /** Recipient's Telegram username, without the at-sign. */
  recipient: Schema.String,
  item: OrderItem,
  priceUzs: Uzs,
  status: OrderStatus,
  /**
   * Which charge the order currently holds: 0 = the first (ledger `order:<id>`), n = the n-th
   * re-charge (`order:<id>:retry:<n>`, by operator retry or mark-done of a failed order).
   * Its refund is `refund:<id>` (n = 0) or `refund:<id>:<n>`.
   */
  chargeSeq: Schema.Int,
  /** Fulfilment attempts since the last (re)queue by an operator. */
  attempts: Schema.Int,
  lastError: Schema.NullOr(Schema.String),
  /** Not claimed before this instant (backoff after a transient failure); null = now. */
  nextAttemptAt: Schema.NullOr(Schema.Date),
  /** On-chain transaction id / hash, or the operator's reference when marked done by hand. */
  txId: Schema.NullOr(Schema.String),
  /** Stars / Premium: the marketplace's reference of the purchase (Fragment `Ref#`), for reconciliation. */
  fragmentRef: Schema.NullOr(Schema.String),
  /**
   * Gifts: the send marker `gift@<instant before the send>`, set before each send so a resumed attempt
   * asks the gift service whether that send happened; kept after delivery. Never a Fragment reference.
   */
  giftRef: Schema.NullOr(Schema.String),
  /** First unknown outcome of the current run of checks; null once known (or an operator rechecks). */
  unknownSince: Schema.NullOr(Schema.Date),
  /** Checks with an unknown outcome since `unknownSince`. */
  unknownAttempts: Schema.Int,
  /** What the checks found out; kept for operators. */
  evidence: Schema.NullOr(OrderEvidence),
  createdAt: Schema.Date,
  updatedAt: Schema.Date,
  completedAt: Schema.NullOr(Schema.Date),
  /** How its delivery is known once completed; null while not completed. */
  delivery: Schema.NullOr(OrderDelivery)
})
export type Order = typeof Order.Type

/** Ledger cause id of the charge with sequence `seq`, around the order id: `<id>`, `<id>:retry:<n>`. */
export const chargeCausePattern = (seq: number): CauseIdPattern =>
  seq === 0 ? { before: "", after: "" } : { before: "", after: `:retry:${seq}` }

/** Ledger cause id of the refund of the charge with sequence `seq`, around the order id: `<id>`, `<id>:<n>`. */
export const refundCausePattern = (seq: number): CauseIdPattern =>
  seq === 0 ? { before: "", after: "" } : { before: "", after: `:${seq}` }

/** Ledger cause id of the charge with sequence `seq`. */
export const chargeCauseId = (order: Pick<Order, "id">, seq: number): string =>
  causeIdAround(chargeCausePattern(seq), order.id)

/** Ledger cause id of the refund of the charge with sequence `seq`. */
export const refundCauseId = (order: Pick<Order, "id">, seq: number): string =>
  causeIdAround(refundCausePattern(seq), order.id)
