/**
 * The fields of the wallet road's requests, checked and typed: the buyer's wallet as TON Connect's
 * `Account` gives it (address, public key, StateInit) instead of a phrase. A request carrying a
 * phrase field is refused outright, before anything else is read: this road never takes one.
 */
import type { Nanoton } from "../money/Nanoton.ts"
import type { PremiumMonths } from "../orders/Order.ts"
import type { PayerAccount } from "../ports/Marketplace.ts"
import { Schema } from "effect"
import { directDecoder, type Fields, present, required, valueOf } from "./DirectDecoding.ts"
import { Months, OrderId, StarsQuantity, TopupAmount, Username } from "./DirectFields.ts"
import { DirectPurchaseError, invalidRequest } from "./DirectPurchaseError.ts"

type Parsed<A> = A | DirectPurchaseError

export interface WalletCommon {
  readonly account: PayerAccount
  readonly orderId: string | undefined
}

export type WalletQuoteRequest =
  | (WalletCommon & { readonly kind: "stars"; readonly username: string; readonly quantity: number })
  | (WalletCommon & { readonly kind: "premium"; readonly username: string; readonly months: PremiumMonths })
  | (WalletCommon & { readonly kind: "ton_topup"; readonly username: string; readonly amount: Nanoton })

export interface WalletStatusRequest {
  /** The wallet's address in any form TON Connect may give (raw or user-friendly). */
  readonly address: string
  readonly orderId: string
}

export interface WalletReportRequest extends WalletStatusRequest {
  readonly boc: string
}

const PHRASE_FIELDS = ["seed", "mnemonic", "mnemonics", "phrase", "words"]

/** A phrase field is refused whatever it holds (its value is never read or echoed). */
const refusePhrase = (fields: Fields): DirectPurchaseError | undefined => {
  const named = PHRASE_FIELDS.find((name) => name in fields)
  return named === undefined
    ? undefined
    : invalidRequest(
        `${named} is not accepted here: this road never takes a mnemonic phrase. Send the wallet's TON Connect ` +
          "account (address, publicKey, walletStateInit) and sign the answered transaction in the wallet"
      )
}

const text = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined)

/**
 * The `account` object (TON Connect's `Account`: `address`, `publicKey`, `walletStateInit`, `chain`;
 * the snake_case spellings are taken too). Its consistency (the StateInit makes that address) is
 * checked against the chain's rules by the use case.
 */
const accountOf = (fields: Fields): Parsed<PayerAccount> => {
  const raw = fields["account"]
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return invalidRequest("account is required: the wallet's TON Connect account {address, publicKey, walletStateInit}")
  }
  const account = raw as Record<string, unknown>
  const address = text(account["address"])
  const publicKey = text(account["publicKey"] ?? account["public_key"])
  const walletStateInit = text(account["walletStateInit"] ?? account["wallet_state_init"])
  if (address === undefined) return invalidRequest("account.address is required (raw form 0:<64 hex>)")
  if (publicKey === undefined) return invalidRequest("account.publicKey is required (64 hex characters)")
  if (walletStateInit === undefined) return invalidRequest("account.walletStateInit is required (base64 BOC)")
  return { address, publicKey, walletStateInit }
}

const decodeOrderId = directDecoder(Schema.Struct({ order_id: Schema.optionalKey(OrderId) }))

const commonOf = (fields: Fields): Parsed<WalletCommon> => {
  const refused = refusePhrase(fields)
  if (refused !== undefined) return refused
  const account = accountOf(fields)
  if (account instanceof DirectPurchaseError) return account
  const order = decodeOrderId(present({ order_id: valueOf(fields, "order_id") }))
  if (order instanceof DirectPurchaseError) return order
  return { account, orderId: order.order_id }
}

// The username, then the kind's own field: the same field schemas as the direct requests.
const decodeStars = directDecoder(Schema.Struct({ username: Username, own: StarsQuantity }))
const decodePremium = directDecoder(Schema.Struct({ username: Username, own: Months }))
const decodeTopup = directDecoder(Schema.Struct({ username: Username, own: TopupAmount }))

/** A quote: the refusal of a phrase and the account first, then the username and the kind's own field. */
const quoteOf = <A>(
  fields: Fields,
  decode: (input: Fields) => Parsed<{ readonly username: string; readonly own: A }>,
  ...names: ReadonlyArray<string>
): Parsed<WalletCommon & { readonly username: string; readonly own: A }> => {
  const common = commonOf(fields)
  if (common instanceof DirectPurchaseError) return common
  const mine = decode(present({ username: valueOf(fields, "username"), own: valueOf(fields, ...names) }))
  if (mine instanceof DirectPurchaseError) return mine
  return { ...common, ...mine }
}

export const parseWalletStars = (fields: Fields): Parsed<WalletQuoteRequest> => {
  const q = quoteOf(fields, decodeStars, "amount", "quantity")
  if (q instanceof DirectPurchaseError) return q
  return { account: q.account, orderId: q.orderId, username: q.username, quantity: q.own, kind: "stars" }
}

export const parseWalletPremium = (fields: Fields): Parsed<WalletQuoteRequest> => {
  const q = quoteOf(fields, decodePremium, "duration", "months")
  if (q instanceof DirectPurchaseError) return q
  return { account: q.account, orderId: q.orderId, username: q.username, months: q.own, kind: "premium" }
}

export const parseWalletTopup = (fields: Fields): Parsed<WalletQuoteRequest> => {
  const q = quoteOf(fields, decodeTopup, "amount")
  if (q instanceof DirectPurchaseError) return q
  return { account: q.account, orderId: q.orderId, username: q.username, amount: q.own, kind: "ton_topup" }
}

const decodeRequiredOrderId = directDecoder(
  Schema.Struct({
    order_id: OrderId.pipe(Schema.annotateKey(required("order_id is required: the id the quote answered")))
  })
)

const requiredOrderId = (fields: Fields): Parsed<string> => {
  const order = decodeRequiredOrderId(present({ order_id: valueOf(fields, "order_id") }))
  return order instanceof DirectPurchaseError ? order : order.order_id
}

export const parseWalletStatus = (fields: Fields): Parsed<WalletStatusRequest> => {
  const refused = refusePhrase(fields)
  if (refused !== undefined) return refused
  const orderId = requiredOrderId(fields)
  if (orderId instanceof DirectPurchaseError) return orderId
  const fromAccount =
    typeof fields["account"] === "object" && fields["account"] !== null
      ? text((fields["account"] as Record<string, unknown>)["address"])
      : undefined
  const address = fromAccount ?? text(fields["address"])
  if (address === undefined) return invalidRequest("address is required: the wallet the order was quoted for")
  return { address, orderId }
}

export const parseWalletReport = (fields: Fields): Parsed<WalletReportRequest> => {
  const order = parseWalletStatus(fields)
  if (order instanceof DirectPurchaseError) return order
  const boc = text(fields["boc"])?.trim()
  if (boc === undefined || boc.length > 65_536 || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(boc)) {
    return invalidRequest("boc is required: the signed message as TON Connect's sendTransaction answered it (base64)")
  }
  return { ...order, boc }
}
