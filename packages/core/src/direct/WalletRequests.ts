/**
 * The fields of the wallet road's requests, checked and typed: the buyer's wallet as TON Connect's
 * `Account` gives it (address, public key, StateInit) instead of a phrase. A request carrying a
 * phrase field is refused outright, before anything else is read: this road never takes one.
 */
import type { Nanoton } from "../money/Nanoton.ts"
import type { PremiumMonths } from "../orders/Order.ts"
import type { PayerAccount } from "../ports/Marketplace.ts"
import { DirectPurchaseError, invalidRequest } from "./DirectPurchaseError.ts"
import {
  type Fields,
  named,
  orderIdOf,
  premiumMonthsOf,
  starsQuantityOf,
  topupAmountOf,
  usernameOf
} from "./DirectRequests.ts"

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

const commonOf = (fields: Fields): Parsed<WalletCommon> => {
  const refused = refusePhrase(fields)
  if (refused !== undefined) return refused
  const account = accountOf(fields)
  if (account instanceof DirectPurchaseError) return account
  const orderId = orderIdOf(fields, [])
  if (orderId instanceof DirectPurchaseError) return orderId
  return { account, orderId }
}

/** A quote: the refusal of a phrase and the account first, then the username and the kind's own field. */
const quoteOf = <A extends object>(
  fields: Fields,
  own: (fields: Fields) => Parsed<A>
): Parsed<WalletCommon & A & { readonly username: string }> => {
  const common = commonOf(fields)
  if (common instanceof DirectPurchaseError) return common
  const username = usernameOf(fields)
  if (username instanceof DirectPurchaseError) return username
  const mine = own(fields)
  if (mine instanceof DirectPurchaseError) return mine
  return { ...common, username, ...mine }
}

const kindOf = <K extends WalletQuoteRequest["kind"], A extends object>(
  kind: K,
  parsed: Parsed<A>
): Parsed<A & { readonly kind: K }> => (parsed instanceof DirectPurchaseError ? parsed : { ...parsed, kind })

export const parseWalletStars = (fields: Fields): Parsed<WalletQuoteRequest> =>
  quoteOf(fields, (f) => kindOf("stars", named("quantity", starsQuantityOf(f))))

export const parseWalletPremium = (fields: Fields): Parsed<WalletQuoteRequest> =>
  quoteOf(fields, (f) => kindOf("premium", named("months", premiumMonthsOf(f))))

export const parseWalletTopup = (fields: Fields): Parsed<WalletQuoteRequest> =>
  quoteOf(fields, (f) => kindOf("ton_topup", named("amount", topupAmountOf(f))))

const requiredOrderId = (fields: Fields): Parsed<string> => {
  const orderId = orderIdOf(fields, [])
  if (orderId instanceof DirectPurchaseError) return orderId
  return orderId ?? invalidRequest("order_id is required: the id the quote answered")
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
