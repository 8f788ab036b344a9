/**
 * The wallet road's own fields as schemas (the rest are `DirectFields`): the buyer's TON Connect
 * account, the wallet an order was quoted for, and the signed message. Each way a field fails is
 * annotated with its coded answer (see `DirectDecoding`); no message holds a field's value.
 */
import { Schema, SchemaTransformation } from "effect"
import { coded, required } from "./DirectDecoding.ts"

const ACCOUNT = "account is required: the wallet's TON Connect account {address, publicKey, walletStateInit}"

const accountText = (message: string) =>
  Schema.String.annotate(coded(message)).pipe(Schema.annotateKey(required(message)))

/**
 * TON Connect's `Account` (`address`, `publicKey`, `walletStateInit`; `chain` is not read). Its
 * consistency (the StateInit makes that address) is checked against the chain's rules by the use case.
 */
export const TonConnectAccount = Schema.Struct({
  address: accountText("account.address is required (raw form 0:<64 hex>)"),
  publicKey: accountText("account.publicKey is required (64 hex characters)"),
  walletStateInit: accountText("account.walletStateInit is required (base64 BOC)")
}).pipe(Schema.annotate(coded(ACCOUNT)), Schema.annotateKey(required(ACCOUNT)))

const NonEmpty = Schema.String.check(Schema.isNonEmpty())

/** The wallet an order was quoted for: the account's address, else `address` (any form TON Connect gives). */
export const QuotedWallet = Schema.Union([
  Schema.Struct({ account: Schema.Struct({ address: NonEmpty }) }),
  Schema.Struct({ address: NonEmpty })
]).annotate(coded("address is required: the wallet the order was quoted for"))

const BOC = "boc is required: the signed message as TON Connect's sendTransaction answered it (base64)"

/** The signed message as TON Connect's sendTransaction answers it: base64 (either alphabet), at most 64 KiB. */
export const SignedBoc = Schema.String.annotate(coded(BOC)).pipe(
  Schema.decodeTo(
    Schema.String.check(
      Schema.isMaxLength(65_536, coded(BOC)),
      Schema.isPattern(/^[A-Za-z0-9+/_-]+={0,2}$/, coded(BOC))
    ),
    SchemaTransformation.trim()
  ),
  Schema.annotateKey(required(BOC))
)
