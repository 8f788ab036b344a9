/**
 * The wallet road for a person on a web page: they name the wallet that will pay (the quote is bound
 * to it: Fragment credits only that wallet's payment), pay the quote from it by a `ton://` link or
 * QR code, and follow the order. A named address is described from the chain (a wallet that has sent
 * before). In sandbox mode a wallet the server signs for (`SandboxWallets`) walks the same road
 * offline. Everything else is `WalletPurchases`, as on the direct surface.
 */
import { Context, Effect, Layer, Schema } from "effect"
import { nanoton } from "../money/Nanoton.ts"
import { Blockchain } from "../ports/Blockchain.ts"
import type { PayerAccount } from "../ports/Marketplace.ts"
import { SandboxWallets, type WalletTransaction } from "../ports/SandboxWallets.ts"
import type { WalletQuote } from "../ports/WalletQuotes.ts"
import { DirectPurchaseError } from "./DirectPurchaseError.ts"
import { WalletPurchases } from "./WalletPurchases.ts"
import { parseWalletPremium, parseWalletStars } from "./WalletRequests.ts"

/** Why the page's request was not quoted or paid, before the wallet road was asked. */
export class CheckoutRefused extends Schema.TaggedError<CheckoutRefused>()("CheckoutRefused", {
  reason: Schema.Literals([
    "AddressInvalid", // not a TON address
    "WalletUnknown", // no v4r2 / v5r1 wallet that has sent before at that address
    "ChainUnavailable", // the chain did not answer
    "SandboxOnly", // a sandbox wallet outside sandbox mode
    "NotSandboxWallet" // the order was quoted for another wallet than the named sandbox wallet
  ])
}) {}

export type CheckoutError = CheckoutRefused | DirectPurchaseError

/** What the page's form asks for: stars (a quantity) or premium (months), as typed. */
export interface CheckoutOrder {
  readonly kind: "stars" | "premium"
  readonly username: string
  readonly amount: string
  readonly orderId: string
}

export interface CheckoutKey {
  readonly address: string
  readonly orderId: string
}

/** A sandbox wallet holds this much: more than any stars or premium quote of the simulator. */
const SANDBOX_FUNDS = nanoton(100_000_000_000n)

/** The request to sign for a quote: TON Connect's `sendTransaction`, as the direct surface answers it. */
export const transactionOf = (quote: WalletQuote): WalletTransaction => ({
  validUntil: quote.validUntil,
  messages: [{ address: quote.payTo, amount: String(quote.payAmount), payload: quote.payload }]
})

export class WalletCheckout extends Context.Service<
  WalletCheckout,
  {
    readonly network: "mainnet" | "testnet" | "sandbox"
    readonly quote: (order: CheckoutOrder, address: string) => Effect.Effect<WalletQuote, CheckoutError>
    /** Sandbox mode: the quote for the sandbox wallet `wallet` names (made and funded when new). */
    readonly sandboxQuote: (order: CheckoutOrder, wallet: string) => Effect.Effect<WalletQuote, CheckoutError>
    /** Sandbox mode: the sandbox wallet signs and broadcasts the order's transaction, and reports it. */
    readonly sandboxPay: (key: CheckoutKey, wallet: string) => Effect.Effect<WalletQuote, CheckoutError>
    readonly status: (key: CheckoutKey) => Effect.Effect<WalletQuote, CheckoutError>
  }
>()("core/direct/WalletCheckout") {
  static readonly layer = Layer.effect(
    WalletCheckout,
    Effect.gen(function* () {
      const chain = yield* Blockchain
      const purchases = yield* WalletPurchases
      const sandbox = yield* SandboxWallets
      const refused = (reason: CheckoutRefused["reason"]) => new CheckoutRefused({ reason })
      const chainDown = Effect.mapError(() => refused("ChainUnavailable"))

      const quoteFor = (order: CheckoutOrder, account: PayerAccount) => {
        const fields = { account, username: order.username, order_id: order.orderId }
        const parsed =
          order.kind === "stars"
            ? parseWalletStars({ ...fields, amount: order.amount })
            : parseWalletPremium({ ...fields, duration: order.amount })
        return parsed instanceof DirectPurchaseError ? Effect.fail(parsed) : purchases.quote(parsed)
      }

      const accountAt = Effect.fn("WalletCheckout.accountAt")(function* (address: string) {
        const checked = yield* chain.parseAddress(address).pipe(Effect.mapError(() => refused("AddressInvalid")))
        const account = yield* chain.walletAccount(checked).pipe(chainDown)
        return account ?? (yield* refused("WalletUnknown"))
      })

      const sandboxAccount = (wallet: string, funds: bigint) =>
        chain.network === "sandbox"
          ? sandbox.open(wallet, nanoton(funds)).pipe(chainDown)
          : Effect.fail(refused("SandboxOnly"))

      return WalletCheckout.of({
        network: chain.network,
        quote: (order, address) => Effect.flatMap(accountAt(address), (account) => quoteFor(order, account)),
        sandboxQuote: (order, wallet) =>
          Effect.flatMap(sandboxAccount(wallet, SANDBOX_FUNDS), (account) => quoteFor(order, account)),
        sandboxPay: Effect.fn("WalletCheckout.sandboxPay")(function* (key, wallet) {
          const account = yield* sandboxAccount(wallet, 0n)
          const quote = yield* purchases.status(key)
          if (quote.walletAddress !== account.address) return yield* refused("NotSandboxWallet")
          if (quote.state !== "awaiting_payment" || quote.boc !== null) return quote
          const boc = yield* sandbox.pay(wallet, transactionOf(quote)).pipe(chainDown)
          return yield* purchases.report({ ...key, boc })
        }),
        status: purchases.status
      })
    })
  )
}
