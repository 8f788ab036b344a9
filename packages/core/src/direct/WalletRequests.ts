/**
 * The wallet road's requests, decoded by the schemas of their fields (`WalletFields`, and `DirectFields`
 * for those it shares with the direct requests): the buyer's wallet as TON Connect's
 * `Account` gives it (address, public key, StateInit) instead of a phrase. A request carrying a
 * phrase field is refused outright, before anything else is read: this road never takes one.
 */
import type { Nanoton } from "../money/Nanoton.ts"
import type { PremiumMonths } from "../orders/Order.ts"
import type { PayerAccount } from "../ports/Marketplace.ts"
import { Schema } from "effect"
import { type Fields, present, requestParser, required, valueOf } from "./DirectDecoding.ts"
import { Months, OrderId, StarsQuantity, TopupAmount, Username } from "./DirectFields.ts"
import { QuotedWallet, SignedBoc, TonConnectAccount } from "./WalletFields.ts"
import { type DirectPurchaseError, invalidRequest } from "./DirectPurchaseError.ts"

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

/** TON Connect's account with its snake_case spellings resolved; anything but an object goes to the schema as is. */
const accountInput = (raw: unknown): unknown =>
  typeof raw === "object" && raw !== null && !Array.isArray(raw)
    ? present({
        address: valueOf(raw as Fields, "address"),
        publicKey: valueOf(raw as Fields, "publicKey", "public_key"),
        walletStateInit: valueOf(raw as Fields, "walletStateInit", "wallet_state_init")
      })
    : raw

/** A quote's fields in the order they are checked: the account, the order id, the username, the kind's own field. */
const quote = <Own extends typeof StarsQuantity | typeof Months | typeof TopupAmount>(own: Own) =>
  Schema.Struct({ account: TonConnectAccount, order_id: Schema.optionalKey(OrderId), username: Username, own })

const quoteInput =
  (...names: ReadonlyArray<string>) =>
  (fields: Fields) =>
    present({
      account: accountInput(fields["account"]),
      order_id: valueOf(fields, "order_id"),
      username: valueOf(fields, "username"),
      own: valueOf(fields, ...names)
    })

/** A phrase field is refused before anything else is read. */
const refusingPhrase =
  <A>(parse: (fields: Fields) => Parsed<A>) =>
  (fields: Fields): Parsed<A> =>
    refusePhrase(fields) ?? parse(fields)

export const parseWalletStars = refusingPhrase(
  requestParser(
    quote(StarsQuantity),
    quoteInput("amount", "quantity"),
    (d): WalletQuoteRequest => ({
      account: d.account,
      orderId: d.order_id,
      username: d.username,
      quantity: d.own,
      kind: "stars"
    })
  )
)

export const parseWalletPremium = refusingPhrase(
  requestParser(
    quote(Months),
    quoteInput("duration", "months"),
    (d): WalletQuoteRequest => ({
      account: d.account,
      orderId: d.order_id,
      username: d.username,
      months: d.own,
      kind: "premium"
    })
  )
)

export const parseWalletTopup = refusingPhrase(
  requestParser(
    quote(TopupAmount),
    quoteInput("amount"),
    (d): WalletQuoteRequest => ({
      account: d.account,
      orderId: d.order_id,
      username: d.username,
      amount: d.own,
      kind: "ton_topup"
    })
  )
)

const QuotedOrderId = OrderId.pipe(Schema.annotateKey(required("order_id is required: the id the quote answered")))

const orderInput = (fields: Fields) => ({
  order_id: valueOf(fields, "order_id"),
  wallet: { account: fields["account"], address: fields["address"] }
})

const addressOf = (wallet: typeof QuotedWallet.Type): string =>
  "account" in wallet ? wallet.account.address : wallet.address

export const parseWalletStatus = refusingPhrase(
  requestParser(
    Schema.Struct({ order_id: QuotedOrderId, wallet: QuotedWallet }),
    (f) => present(orderInput(f)),
    (d): WalletStatusRequest => ({ address: addressOf(d.wallet), orderId: d.order_id })
  )
)

export const parseWalletReport = refusingPhrase(
  requestParser(
    Schema.Struct({ order_id: QuotedOrderId, wallet: QuotedWallet, boc: SignedBoc }),
    (f) => present({ ...orderInput(f), boc: valueOf(f, "boc") }),
    (d): WalletReportRequest => ({ address: addressOf(d.wallet), orderId: d.order_id, boc: d.boc })
  )
)
