/**
 * The four direct requests (and the balance lookup) as schemas of their fields, decoded and typed.
 * These are the first checks of every request (DESIGN §8: fields before wallet, funds, marketplace and
 * chain), in the order each schema declares its fields: a purchase's username, its own field, then the
 * phrase and order id, then the wallet version; a transfer's recipient and amount, the same common
 * fields, then the comment. The field schemas are in `DirectFields`, the coded errors in `DirectDecoding`.
 */
import { Schema } from "effect"
import { type Fields, present, requestParser, valueOf } from "./DirectDecoding.ts"
import {
  Comment,
  Months,
  OrderId,
  Recipient,
  Seed,
  StarsQuantity,
  TopupAmount,
  TransferAmount,
  Username,
  Version,
  withoutPhrase
} from "./DirectFields.ts"
import type {
  DirectCommon,
  PremiumPurchase,
  StarsPurchase,
  TonTopupPurchase,
  TonTransfer,
  WalletInfoRequest
} from "./DirectPurchase.ts"

export { containsPhrase, phraseWords } from "./PhraseWords.ts"
export type { Fields } from "./DirectDecoding.ts"

/** The phrase and the order id, checked together so an id holding the phrase is refused before the version is read. */
const Phrase = (counts: ReadonlyArray<number>) =>
  Schema.Struct({ seed: Seed(counts), order_id: Schema.optionalKey(OrderId) }).check(
    withoutPhrase((p) => ({ seed: p.seed, text: p.order_id }), "order_id must not contain the mnemonic phrase")
  )

const common = (counts: ReadonlyArray<number>) => ({
  phrase: Phrase(counts),
  wallet_version: Schema.optionalKey(Version)
})

const StarsRequest = Schema.Struct({ username: Username, quantity: StarsQuantity, ...common([12, 24]) })
const PremiumRequest = Schema.Struct({ username: Username, months: Months, ...common([24]) })
const TopupRequest = Schema.Struct({ username: Username, amount: TopupAmount, ...common([12, 24]) })
const TransferRequest = Schema.Struct({
  to: Recipient,
  amount: TransferAmount,
  ...common([12, 24]),
  comment: Schema.optionalKey(Comment)
}).check(
  // A comment is public on chain forever: never let a phrase go there by mistake.
  withoutPhrase((t) => ({ seed: t.phrase.seed, text: t.comment }), "comment must not contain the mnemonic phrase")
)
const WalletInfoFields = Schema.Struct({ seed: Seed([12, 24]), wallet_version: Schema.optionalKey(Version) })

/** The schemas' input: each field under its canonical name, aliases resolved, absent ones left out. */
const commonInput = (fields: Fields) => ({
  phrase: present({ seed: valueOf(fields, "seed"), order_id: valueOf(fields, "order_id") }),
  wallet_version: valueOf(fields, "wallet_version", "version")
})

const purchaseInput = (fields: Fields, own: string, ...names: ReadonlyArray<string>) =>
  present({ username: valueOf(fields, "username"), [own]: valueOf(fields, ...names), ...commonInput(fields) })

const commonOf = (d: {
  readonly phrase: { readonly seed: DirectCommon["seed"]; readonly order_id?: string }
  readonly wallet_version?: DirectCommon["walletVersion"]
}): DirectCommon => ({ seed: d.phrase.seed, orderId: d.phrase.order_id, walletVersion: d.wallet_version })

export const parseStars = requestParser(
  StarsRequest,
  (f) => purchaseInput(f, "quantity", "amount", "quantity"),
  (d): StarsPurchase => ({ ...commonOf(d), username: d.username, quantity: d.quantity })
)

export const parsePremium = requestParser(
  PremiumRequest,
  (f) => purchaseInput(f, "months", "duration", "months"),
  (d): PremiumPurchase => ({ ...commonOf(d), username: d.username, months: d.months })
)

export const parseTonTopup = requestParser(
  TopupRequest,
  (f) => purchaseInput(f, "amount", "amount"),
  (d): TonTopupPurchase => ({ ...commonOf(d), username: d.username, amount: d.amount })
)

export const parseTransfer = requestParser(
  TransferRequest,
  (f) =>
    present({
      to: valueOf(f, "to", "address"),
      amount: valueOf(f, "amount"),
      ...commonInput(f),
      comment: valueOf(f, "comment")
    }),
  (d): TonTransfer => ({ ...commonOf(d), to: d.to, amount: d.amount, comment: d.comment })
)

export const parseWalletInfo = requestParser(
  WalletInfoFields,
  (f) => present({ seed: valueOf(f, "seed"), wallet_version: valueOf(f, "wallet_version", "version") }),
  (d): WalletInfoRequest => ({ seed: d.seed, walletVersion: d.wallet_version })
)
