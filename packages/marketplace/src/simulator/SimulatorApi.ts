/**
 * The simulated `/api?hash=` methods, answering in Fragment's wire format (HTTP 200, JSON,
 * errors as `{"error": "<text>"}` with Fragment's own texts where they are known).
 */
import { FRAGMENT_STARS_MAX, FRAGMENT_STARS_MIN } from "../FragmentFlows.ts"
import { encodeCommentPayload } from "../FragmentPayload.ts"
import { confirmReq, pageState } from "./SimulatorDelivery.ts"
import { commentOf, formatTon, priceOf, type SimulatorPrices } from "./SimulatorPricing.ts"
import { randomHex, type SimInvoice, type SimKind, type SimSession, type SimulatorState } from "./SimulatorState.ts"

export type Answer = Record<string, unknown>
export type Fields = Readonly<Record<string, string>>

/** Sandbox hook: has a payment with this Ref# (and amount, to this address) reached the wallet? */
export type PaymentSeen = (
  ref: string,
  expected: {
    readonly amount: bigint
    readonly address: string
    readonly comment: string
    /** The wallet the invoice was linked to (raw `0:<hex>`): only its payment counts. */
    readonly from?: string
    /** The transaction's `validUntil` (unix seconds): a payment landing later does not count. */
    readonly before?: number
  }
) => Promise<boolean>

export interface ApiContext {
  readonly state: SimulatorState
  readonly session: SimSession
  readonly hasTonToken: boolean
  readonly prices: SimulatorPrices
  readonly walletAddress: string
  readonly validForSeconds: number
  readonly paymentSeen: PaymentSeen | undefined
  readonly baseUrl: string
  /** waits without holding the simulator's other requests (closed timers end with the server) */
  readonly sleep: (ms: number) => Promise<void>
}

const KIND_OF_METHOD: Record<string, readonly [SimKind, "state" | "search" | "init" | "link"]> = {
  updateStarsBuyState: ["stars", "state"],
  searchStarsRecipient: ["stars", "search"],
  initBuyStarsRequest: ["stars", "init"],
  getBuyStarsLink: ["stars", "link"],
  updatePremiumState: ["premium", "state"],
  searchPremiumGiftRecipient: ["premium", "search"],
  initGiftPremiumRequest: ["premium", "init"],
  getGiftPremiumLink: ["premium", "link"],
  updateAdsTopupState: ["ton", "state"],
  searchAdsTopupRecipient: ["ton", "search"],
  initAdsTopupRequest: ["ton", "init"],
  getAdsTopupLink: ["ton", "link"]
}

const ACCESS_DENIED = { error: "Access denied" }
const PRICE_CHANGED = "Price was changed. Please try again."
const USERNAME = /^[A-Za-z][A-Za-z0-9_]{3,31}$/
const isInt = (text: string | undefined): boolean => text !== undefined && /^\d{1,12}$/.test(text)

const search = (ctx: ApiContext, kind: SimKind, fields: Fields): Answer => {
  const query = (fields["query"] ?? "")
    .trim()
    .replace(/^(https?:\/\/)?t\.me\//i, "")
    .replace(/^@/, "")
  const key = query.toLowerCase()
  if (!USERNAME.test(query) || ctx.state.unknownUsers.has(key)) return { error: "No Telegram users found." }
  const refusal = ctx.state.magic.searchRefusal(key)
  if (refusal !== undefined) return { error: refusal }
  if (ctx.state.nonUsers.has(key)) return { error: "Please enter a username assigned to a user." }
  if (kind === "stars" && ctx.state.cannotGift.has(key)) {
    return { error: "You can&#39;t gift Telegram Stars to this account at this moment." }
  }
  const token = randomHex(24)
  ctx.state.recipients.set(token, key)
  const name = query.charAt(0).toUpperCase() + query.slice(1)
  return {
    ok: true,
    found: { myself: false, recipient: token, name, photo: `<img src="${ctx.baseUrl}/img/${key}.jpg" />` }
  }
}

const init = (ctx: ApiContext, kind: SimKind, fields: Fields): Answer => {
  if (!ctx.hasTonToken) return ACCESS_DENIED
  const username = ctx.state.recipients.get(fields["recipient"] ?? "")
  if (username === undefined) return { error: "Invalid recipient." }
  const evm = /evm/i.test(fields["payment_method"] ?? "")
  if (kind !== "ton" && fields["payment_method"] !== "ton" && !evm) return { error: "Unsupported payment method." }
  const raw = kind === "stars" ? fields["quantity"] : kind === "premium" ? fields["months"] : fields["amount"]
  if (!isInt(raw)) return { error: "Invalid amount." }
  const units = Number(raw)
  if (kind === "stars" && (units < FRAGMENT_STARS_MIN || units > FRAGMENT_STARS_MAX))
    return { error: "Invalid number of stars." }
  if (kind === "premium" && units !== 3 && units !== 6 && units !== 12) return { error: "Invalid duration." }
  if (kind === "ton" && (units < 1 || units > 1_000_000)) return { error: "Invalid amount." }
  if (kind === "premium" && ctx.state.subscribed.has(username)) {
    return { error: "This account is already subscribed to Telegram Premium." }
  }
  if (ctx.state.switches.priceChanged) return { error: PRICE_CHANGED }
  if (ctx.state.switches.priceChanges > 0) {
    // the price moved since the page state was read: refused until the client reads it again
    ctx.state.switches.priceChanges -= 1
    ctx.state.starPriceBump += 40_000n
    ctx.session.needsResync = true
  }
  if (ctx.session.needsResync) return { error: PRICE_CHANGED }
  const ref = ctx.state.newRef()
  const invoice: SimInvoice = {
    reqId: ctx.state.newReqId(),
    kind,
    ssid: ctx.session.ssid,
    username,
    units,
    amount: priceOf(ctx.prices, kind, units) + (kind === "stars" ? ctx.state.starPriceBump * BigInt(units) : 0n),
    ref,
    comment: commentOf(kind, units, ref),
    evm,
    status: "created",
    boc: undefined,
    processingPolls: 0
  }
  ctx.state.invoices.set(invoice.reqId, invoice)
  ctx.state.magic.opened(invoice)
  // the session's purchase state is now this invoice's
  ctx.session.latest = invoice.reqId
  const amount = formatTon(invoice.amount)
  switch (kind) {
    case "stars":
      return { req_id: invoice.reqId, myself: false, to_bot: false, amount }
    case "premium":
      return {
        req_id: invoice.reqId,
        myself: false,
        amount,
        item_title: "Telegram Premium",
        content: `<div class="tm-premium-gift">${units === 12 ? "1 year" : `${units} months`}</div>`,
        button: "<button>Gift Premium</button>"
      }
    case "ton":
      return { ok: true, req_id: invoice.reqId, amount }
  }
}

const validAccount = (text: string | undefined): string | undefined => {
  try {
    const account = JSON.parse(text ?? "") as Record<string, unknown>
    const ok =
      typeof account["address"] === "string" &&
      /^-?\d+:[0-9a-f]{64}$/.test(account["address"]) &&
      typeof account["publicKey"] === "string" &&
      /^[0-9a-f]{64}$/.test(account["publicKey"]) &&
      account["chain"] === "-239" &&
      typeof account["walletStateInit"] === "string"
    return ok ? (account["address"] as string) : undefined
  } catch {
    // JSON.parse failure: treated like any malformed account
    return undefined
  }
}

const validDevice = (text: string | undefined): boolean => {
  try {
    const device = JSON.parse(text ?? "") as Record<string, unknown>
    return typeof device === "object" && device !== null && typeof device["appName"] === "string"
  } catch {
    // JSON.parse failure
    return false
  }
}

const invoiceOf = (ctx: ApiContext, kind: SimKind, id: string | undefined): SimInvoice | undefined => {
  const invoice = ctx.state.invoices.get(id ?? "")
  return invoice !== undefined && invoice.kind === kind && invoice.ssid === ctx.session.ssid ? invoice : undefined
}

const message = (ctx: Pick<ApiContext, "state" | "walletAddress">, invoice: SimInvoice) => ({
  address: ctx.walletAddress,
  amount: invoice.amount.toString(),
  payload: encodeCommentPayload(invoice.comment, { urlSafe: ctx.state.switches.urlSafePayloads })
})

const link = (ctx: ApiContext, kind: SimKind, fields: Fields): Answer => {
  if (!ctx.hasTonToken) return ACCESS_DENIED
  const invoice = invoiceOf(ctx, kind, fields["id"])
  if (invoice === undefined || invoice.status === "cancelled") return { error: "Request not found." }
  if (fields["transaction"] !== "1") {
    // QR mode, as Fragment's own page uses it
    invoice.status = "linked"
    return {
      ok: true,
      qr_link: `ton://transfer/${ctx.walletAddress}?amount=${invoice.amount}`,
      link: `${ctx.baseUrl}/tonkeeper/rawRequest?id=${invoice.reqId}&qr=1`,
      expire_after: ctx.validForSeconds,
      can_retry: true,
      check_method: "checkReq",
      check_params: { id: invoice.reqId }
    }
  }
  const from = validAccount(fields["account"])
  if (from === undefined || !validDevice(fields["device"])) return { error: "Invalid wallet data." }
  if (ctx.state.switches.needVerify) return { need_verify: true }
  if (invoice.evm) return { ok: true, evm: true }
  invoice.status = invoice.status === "created" ? "linked" : invoice.status
  // as on fragment.com, the invoice now belongs to the wallet that asked for its transaction
  invoice.payer = from.toLowerCase()
  invoice.payBefore = Math.floor(Date.now() / 1000) + ctx.validForSeconds
  return {
    ok: true,
    transaction: {
      validUntil: invoice.payBefore,
      from,
      messages: [message(ctx, invoice)]
    },
    confirm_method: "confirmReq",
    confirm_params: { id: invoice.reqId }
  }
}

const cancelInvoice = (ctx: ApiContext, fields: Fields): Answer => {
  const invoice = ctx.state.invoices.get(fields["req_id"] ?? "")
  if (invoice === undefined || invoice.ssid !== ctx.session.ssid) return { error: "Request not found." }
  if (invoice.status === "processing" || invoice.status === "done") return { error: "Request is already paid." }
  invoice.status = "cancelled"
  return { ok: true }
}

export const handleApi = async (ctx: ApiContext, method: string, fields: Fields): Promise<Answer> => {
  if (ctx.state.switches.sessionExpired) return ACCESS_DENIED
  const known = KIND_OF_METHOD[method]
  if (known !== undefined) {
    const [kind, step] = known
    switch (step) {
      case "state":
        return pageState(ctx)
      case "search": {
        const delay = ctx.state.magic.searchDelayMs((fields["query"] ?? "").replace(/^(https?:\/\/)?t\.me\//i, ""))
        if (delay > 0) await ctx.sleep(delay)
        return search(ctx, kind, fields)
      }
      case "init":
        return init(ctx, kind, fields)
      case "link":
        return link(ctx, kind, fields)
    }
  }
  switch (method) {
    case "confirmReq":
      return confirmReq(ctx, fields)
    case "cancelInvoice":
      return cancelInvoice(ctx, fields)
    case "checkReq": {
      const invoice = ctx.state.invoices.get(fields["id"] ?? "")
      return invoice === undefined
        ? { error: "Request not found." }
        : { ok: true, confirmed: invoice.status === "done" }
    }
    default:
      return { error: "Invalid method" }
  }
}

/** GET /tonkeeper/rawRequest?id=...&qr=1 (the older and QR-mode way to fetch the message) */
export const rawRequest = (
  ctx: Omit<ApiContext, "session" | "hasTonToken" | "sleep">,
  invoice: SimInvoice
): Answer => ({
  version: "0",
  body: {
    type: "send-transaction",
    params: {
      valid_until: Math.floor(Date.now() / 1000) + ctx.validForSeconds,
      messages: [message(ctx, invoice)],
      source: ""
    },
    response_options: { callback_url: `${ctx.baseUrl}/tonkeeper/rawCallback?id=${invoice.reqId}`, broadcast: false },
    expires_sec: ctx.validForSeconds
  }
})
