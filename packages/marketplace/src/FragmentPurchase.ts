/**
 * One Fragment purchase, step by step on a page's api: recipient search, page state, invoice
 * (init), TON Connect link -> the PaymentRequest. An invoice opened but not turned into a usable
 * payment is cancelled right away, since no money has left at that point.
 * "Price was changed" (at init, or a link amount above the init's) re-syncs the page (state and
 * search again) and retries the init, up to `priceRetries` times: no order fails that a retry serves.
 */
import { Data, Effect } from "effect"
import {
  MarketplaceError,
  type PayerAccount,
  type PaymentRequest,
  type Recipient
} from "@resale/core/ports/Marketplace.ts"
import { decodeAnswer, InitAnswer, LinkAnswer, parseDecimalTon, parseNanoton, SearchAnswer } from "./FragmentAnswers.ts"
import { isPriceChanged, unavailable } from "./FragmentErrors.ts"
import type { FragmentFlow } from "./FragmentFlows.ts"
import { normalizeUsername } from "./FragmentFlows.ts"
import { readCommentPayload } from "./FragmentPayload.ts"
import type { FormFields, FragmentTransport } from "./FragmentTransport.ts"
import { accountJson, deviceJson, payerProblem } from "./TonConnect.ts"

/** What the confirm step needs to remember about an invoice. */
export interface InvoiceMemo {
  readonly dh: string
  readonly confirmMethod: string
  readonly confirmParams: Readonly<Record<string, unknown>>
}

export interface Quote {
  readonly payment: PaymentRequest
  readonly memo: InvoiceMemo
}

/** Fragment's page nonce: a random integer in 100000000..2147483647 */
export const stateNonce = (): string => String(100_000_000 + Math.floor(Math.random() * 2_047_483_647))

const rejected = (message: string) => new MarketplaceError({ reason: "Rejected", message })

/** Fragment's price moved between our view of the page and the invoice: re-sync and init again. */
class PriceChanged extends Data.TaggedError("PriceChanged")<{ readonly message: string }> {}

/** Hooks the session pool gives a quote: the invoice is the session's latest from `opened` on. */
export interface QuoteHooks {
  readonly opened: (reqId: string) => Effect.Effect<void, MarketplaceError>
}

export const makeFragmentPurchase = (transport: FragmentTransport, priceRetries = 3) => {
  const openState = (flow: FragmentFlow, dh: string) =>
    transport.call(
      flow.page,
      flow.stateMethod,
      flow.kind === "ton" ? { mode: "new" } : { mode: "new", lv: "false", dh }
    )

  const search = Effect.fn("FragmentPurchase.search")(function* (
    flow: FragmentFlow,
    username: string,
    fields: FormFields
  ) {
    const name = normalizeUsername(username)
    if (name === undefined) {
      return yield* new MarketplaceError({ reason: "RecipientNotFound", message: "Not a valid Telegram username" })
    }
    const answer = yield* transport
      .call(flow.page, flow.searchMethod, { query: name, ...fields })
      .pipe(Effect.flatMap(decodeAnswer(SearchAnswer, flow.searchMethod)))
    const found = answer.found
    if (found.recipient === undefined || found.recipient.length === 0) {
      return yield* new MarketplaceError({ reason: "RecipientNotFound", message: `No Telegram user @${name}` })
    }
    const recipient: Recipient = {
      kind: flow.kind,
      username: name,
      token: found.recipient,
      name: found.name ?? name,
      ...(found.photo === undefined ? {} : { photo: found.photo })
    }
    return recipient
  })

  const lookup = (flow: FragmentFlow, username: string) =>
    flow.stateFirst
      ? openState(flow, stateNonce()).pipe(Effect.andThen(search(flow, username, flow.lookupFields)))
      : search(flow, username, flow.lookupFields)

  const cancel = Effect.fn("FragmentPurchase.cancel")(function* (flow: FragmentFlow, reqId: string) {
    yield* transport.call(flow.page, "cancelInvoice", { req_id: reqId })
  })

  const link = Effect.fn("FragmentPurchase.link")(function* (
    flow: FragmentFlow,
    reqId: string,
    quoted: bigint | undefined,
    payer: PayerAccount
  ) {
    const answer = yield* transport
      .call(flow.page, flow.linkMethod, {
        transaction: 1,
        id: reqId,
        show_sender: 0,
        account: accountJson(payer),
        device: deviceJson()
      })
      .pipe(Effect.flatMap(decodeAnswer(LinkAnswer, flow.linkMethod)))
    if (answer.need_verify === true) {
      return yield* new MarketplaceError({
        reason: "NeedVerify",
        message: "Fragment requires verification (KYC or wallet link) for this account"
      })
    }
    if (answer.evm === true) return yield* rejected("Fragment expects an EVM payment for this invoice")
    const messages = answer.transaction?.messages ?? []
    const message = messages[0]
    if (answer.transaction === undefined || message === undefined) {
      return yield* unavailable(`Fragment ${flow.linkMethod} returned no transaction`)
    }
    // we pay exactly one message; splitting a payment we do not understand could lose money
    if (messages.length !== 1) return yield* unavailable(`Fragment asks for ${messages.length} messages`)
    const amount = parseNanoton(message.amount)
    if (amount === undefined || amount <= 0n) return yield* unavailable("Fragment returned an unreadable amount")
    if (quoted !== undefined && amount > quoted) {
      return yield* new PriceChanged({
        message: "Fragment's payment amount exceeds the invoice's price (price changed)"
      })
    }
    const { comment, ref } = yield* readCommentPayload(message.payload)
    const payment: PaymentRequest = {
      kind: flow.kind,
      reqId,
      amount,
      address: message.address,
      payload: message.payload,
      ref,
      comment,
      validUntil: answer.transaction.validUntil
    }
    return {
      payment,
      confirmMethod: answer.confirm_method ?? "confirmReq",
      confirmParams: answer.confirm_params ?? { id: reqId }
    }
  })

  /** One pass: (state,) search, state, init, link; `initFields` carries quantity / months / amount. */
  const attempt = Effect.fn("FragmentPurchase.attempt")(function* (
    flow: FragmentFlow,
    username: string,
    searchFields: FormFields,
    initFields: FormFields,
    payer: PayerAccount,
    hooks: QuoteHooks
  ) {
    const dh = stateNonce()
    if (flow.stateFirst) yield* openState(flow, dh)
    const recipient = yield* search(flow, username, searchFields)
    if (!flow.stateFirst) yield* openState(flow, dh)
    const init = yield* transport.call(flow.page, flow.initMethod, { recipient: recipient.token, ...initFields }).pipe(
      Effect.catchIf(isPriceChanged, (e) => Effect.fail(new PriceChanged({ message: e.message }))),
      Effect.flatMap(decodeAnswer(InitAnswer, flow.initMethod))
    )
    if (init.need_ton === true) {
      return yield* new MarketplaceError({
        reason: "SessionExpired",
        message: "No TON wallet is linked to the Fragment session"
      })
    }
    if (init.req_id === undefined || String(init.req_id).length === 0) {
      return yield* new MarketplaceError({
        reason: "SessionExpired",
        message: "Fragment opened no invoice (session may have expired)"
      })
    }
    const reqId = String(init.req_id)
    const quoted = init.amount === undefined ? undefined : parseDecimalTon(init.amount)
    const linked = yield* hooks.opened(reqId).pipe(
      Effect.andThen(link(flow, reqId, quoted, payer)),
      Effect.tapError(() => cancel(flow, reqId).pipe(Effect.ignore))
    )
    const quote: Quote = {
      payment: linked.payment,
      memo: { dh, confirmMethod: linked.confirmMethod, confirmParams: linked.confirmParams }
    }
    return quote
  })

  /** `attempt`, again after each "Price was changed" (bounded); then the last one fails as Rejected. */
  const quote = Effect.fn("FragmentPurchase.quote")(function* (
    flow: FragmentFlow,
    username: string,
    searchFields: FormFields,
    initFields: FormFields,
    payer: PayerAccount,
    hooks: QuoteHooks
  ) {
    const problem = payerProblem(payer)
    if (problem !== undefined) return yield* rejected(problem)
    let tries = 0
    while (true) {
      const result = yield* Effect.result(attempt(flow, username, searchFields, initFields, payer, hooks))
      if (result._tag === "Success") return result.success
      const error = result.failure
      if (error._tag === "MarketplaceError") return yield* error
      tries += 1
      yield* Effect.logInfo("Fragment price changed; re-syncing the page and opening the invoice again").pipe(
        Effect.annotateLogs({ session: transport.session, kind: flow.kind, attempt: tries })
      )
      if (tries > priceRetries) return yield* rejected(`${error.message}; still changing after ${priceRetries} retries`)
    }
  })

  return { lookup, quote, cancel }
}
