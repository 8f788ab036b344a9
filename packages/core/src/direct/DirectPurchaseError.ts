import { Schema } from "effect"
import { MarketplaceErrorReason } from "../ports/Marketplace.ts"

/**
 * Why a direct purchase did not finish. No HTTP status here: the direct surface maps each reason to
 * its code in one place. `message` is safe to show and log: it never holds the mnemonic.
 * `outcome` says whether money may have left: `NotPaid` is certain; `Unknown` stays open until the
 * order is reconciled on chain; `Paid` means the payment is on chain but delivery is unconfirmed.
 * `marketplaceReason` keeps the marketplace's own reason behind a `Marketplace*` failure, so callers
 * that retry (the worker) can tell a passing outage (`Unavailable`, `Timeout`) from a refusal.
 */
export class DirectPurchaseError extends Schema.TaggedError<DirectPurchaseError>()("DirectPurchaseError", {
  reason: Schema.Literals([
    "InvalidRequest", // a field missing or wrong
    "AmountBelowMinimum", // stars below 50
    "AmountAboveMaximum", // stars above 1,000,000
    "WalletInvalid", // not a valid phrase, a frozen wallet, or a funded wallet of another version than asked for
    "InsufficientFunds", // balance below amount + fees, or a valid phrase whose wallets hold nothing yet
    "MarketplaceRejected", // the marketplace refused (already subscribed, unknown user, ...)
    "MarketplaceTimeout", // the marketplace did not answer in time (before or after payment)
    "TransferFailed", // the chain refused, a network error, or the message never executed
    "ServiceBusy", // too many requests derive keys at once: nothing was done, retry shortly
    "OrderPending", // this order id (or this wallet) has a payment in flight, or is still confirming
    "OrderIdReused", // this order id finished with another request, where ids are never reused (the worker)
    "OrderNotFound", // wallet road: no quote under this order id for this wallet
    "SecondSignature" // wallet road: another signed message was already reported for this order
  ]),
  message: Schema.String,
  orderId: Schema.optionalKey(Schema.String),
  outcome: Schema.optionalKey(Schema.Literals(["NotPaid", "Unknown", "Paid"])),
  marketplaceReason: Schema.optionalKey(MarketplaceErrorReason)
}) {}

export const invalidRequest = (message: string) => new DirectPurchaseError({ reason: "InvalidRequest", message })
