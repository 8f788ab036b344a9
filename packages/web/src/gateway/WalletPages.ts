/**
 * The wallet page's loads and posts, on core's `WalletCheckout` (never the direct surface's routes):
 * `GET /v2/wallet` (the form), `GET /v2/wallet/order?address=&order=` (the order, followed to
 * delivery), `POST /v2/wallet/quote` and, in sandbox mode, `POST /v2/wallet/sandbox-pay`, both within
 * the client's limit (`WalletLimit.ts`). A refusal goes back to the form in words chosen by its reason,
 * never the use case's English text.
 */
import { randomUUID } from "node:crypto"
import type { CheckoutError, WalletCheckout } from "@resale/core/direct/WalletCheckout.ts"
import { Effect } from "effect"
import type { MessageKey } from "../i18n/en.ts"
import { walletOrderPage, walletPage } from "../pages/WalletPage.ts"
import { page, type PageResult } from "./PageKit.ts"
import type { FlashLine } from "./WebCookies.ts"
import type { PageEnv } from "./PageRoutes.ts"

type Checkout = WalletCheckout["Service"]

/** The words for a refusal, by its reason. */
export const checkoutErrorKey = (error: CheckoutError): MessageKey => {
  switch (error.reason) {
    case "AddressInvalid":
      return "wallet.error.address"
    case "WalletUnknown":
      return "wallet.error.walletUnknown"
    case "ChainUnavailable":
    case "TransferFailed":
      return "wallet.error.chain"
    case "SandboxOnly":
      return "wallet.error.sandboxOnly"
    case "NotSandboxWallet":
      return "wallet.error.notSandboxWallet"
    case "InvalidRequest":
    case "AmountBelowMinimum":
    case "AmountAboveMaximum":
      return "wallet.error.fields"
    case "MarketplaceRejected":
      return "wallet.error.rejected"
    case "MarketplaceTimeout":
      return "wallet.error.marketplace"
    case "OrderPending":
      return "wallet.error.pending"
    case "OrderNotFound":
      return "wallet.error.notFound"
    case "SecondSignature":
      return "wallet.error.signedTwice"
    default:
      return "wallet.error.other"
  }
}

const unavailable: PageResult = { _tag: "Failed", status: 404, lines: [{ key: "error.notFound" }] }

const orderUrl = (address: string, orderId: string, sandboxWallet?: string) =>
  `/v2/wallet/order?address=${encodeURIComponent(address)}&order=${encodeURIComponent(orderId)}${
    sandboxWallet === undefined ? "" : `&sandbox=${encodeURIComponent(sandboxWallet)}`
  }`

type Loader = (env: PageEnv) => Effect.Effect<PageResult>

export const WALLET_PAGES: ReadonlyArray<readonly [RegExp, Loader]> = [
  [/^\/v2\/wallet$/, (env) => Effect.succeed(env.core.wallet === undefined ? unavailable : page(walletPage(env.ctx)))],
  [
    /^\/v2\/wallet\/order$/,
    (env) => {
      const checkout = env.core.wallet
      const address = env.query.get("address") ?? ""
      const orderId = env.query.get("order") ?? ""
      if (checkout === undefined) return Effect.succeed(unavailable)
      const sandboxWallet = env.query.get("sandbox") ?? undefined
      return checkout.status({ address, orderId }).pipe(
        Effect.map((quote) => page(walletOrderPage(env.ctx, { quote, address, sandboxWallet }))),
        // a wrong address or id in the link is an order this wallet does not have
        Effect.catch((error) =>
          Effect.succeed<PageResult>(
            error.reason === "ChainUnavailable"
              ? { _tag: "Failed", status: 503, lines: [{ key: "wallet.error.chain" }] }
              : { _tag: "Failed", status: 404, lines: [{ key: "wallet.error.notFound" }] }
          )
        )
      )
    }
  ]
]

/** Where a refused post goes: back to the form (or the order), at that form, what was typed put back. */
const backTo = (to: string, form: string, kept: Readonly<Record<string, string>>, line: FlashLine): PageResult => ({
  _tag: "Redirect",
  to: `${to}#${form}`,
  flash: { kind: "error", lines: [line], form, values: { ...kept } }
})

/** A refusal of the use case, in words chosen by its reason. */
const refused = (to: string, form: string, kept: Readonly<Record<string, string>>) => (error: CheckoutError) =>
  Effect.succeed(backTo(to, form, kept, { key: checkoutErrorKey(error) }))

/** The post runs only when its client is within the limit (`WalletLimit.ts`); else it is told how long to wait. */
const limited = (
  wait: Effect.Effect<number>,
  back: readonly [to: string, form: string, kept: Readonly<Record<string, string>>],
  post: Effect.Effect<PageResult>
): Effect.Effect<PageResult> =>
  Effect.flatMap(wait, (seconds) =>
    seconds > 0 ? Effect.succeed(backTo(...back, { key: "wallet.error.wait", params: { n: seconds } })) : post
  )

/**
 * The wallet page's form posts (CSRF already checked by the gateway); undefined for any other path.
 * `wait` counts the post against its client's limit. Success goes to the order's page, which follows it.
 */
export const walletPost = (
  path: string,
  checkout: Checkout | undefined,
  fields: Readonly<Record<string, string>>,
  kept: Readonly<Record<string, string>>,
  wait: Effect.Effect<number>
): Effect.Effect<PageResult> | undefined => {
  if (path !== "/v2/wallet/quote" && path !== "/v2/wallet/sandbox-pay") return undefined
  if (checkout === undefined) return Effect.succeed(unavailable)
  const address = (fields["address"] ?? "").trim()
  const orderId = fields["order_id"] ?? ""
  if (path === "/v2/wallet/sandbox-pay") {
    const wallet = fields["wallet"] ?? ""
    const back = orderUrl(address, orderId, wallet)
    return limited(
      wait,
      [back, "pay", {}],
      checkout.sandboxPay({ address, orderId }, wallet).pipe(
        Effect.map((): PageResult => ({ _tag: "Redirect", to: orderUrl(address, orderId) })),
        Effect.catch(refused(back, "pay", {}))
      )
    )
  }
  const order = {
    kind: fields["kind"] === "premium" ? ("premium" as const) : ("stars" as const),
    username: fields["username"] ?? "",
    amount: fields["amount"] ?? "",
    orderId
  }
  if (fields["sandbox_wallet"] === "1") {
    const wallet = randomUUID()
    return limited(
      wait,
      ["/v2/wallet", "buy", kept],
      checkout.sandboxQuote(order, wallet).pipe(
        Effect.map((q): PageResult => ({ _tag: "Redirect", to: orderUrl(q.walletAddress, q.orderId, wallet) })),
        Effect.catch(refused("/v2/wallet", "buy", kept))
      )
    )
  }
  return limited(
    wait,
    ["/v2/wallet", "buy", kept],
    checkout.quote(order, address).pipe(
      Effect.map((q): PageResult => ({ _tag: "Redirect", to: orderUrl(address, q.orderId) })),
      Effect.catch(refused("/v2/wallet", "buy", kept))
    )
  )
}
