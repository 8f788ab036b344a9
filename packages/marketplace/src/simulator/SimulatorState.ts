/**
 * Everything the Fragment simulator remembers: cookie sessions with their api hashes and their one
 * purchase state (the session's latest invoice), invoices and their delivery state, the switches
 * tests flip, the fault injections queued, and logs of the newest calls and page loads.
 */
import { randomBytes } from "node:crypto"
import { BoundedLog, loggedFields } from "./SimulatorCallLog.ts"
import { SimulatorMagic } from "./SimulatorMagic.ts"

export type SimPage = "/stars/buy" | "/premium/gift" | "/ads/topup"
export type SimKind = "stars" | "premium" | "ton"

export interface SimSession {
  readonly ssid: string
  /** the other three cookies this session must present */
  readonly token: string
  readonly tonToken: string
  hash: string
  /** the session's latest invoice: what update*State answers about, whatever id or dh it is sent */
  latest: string | undefined
  /** "Price was changed" was answered: every init fails so until the page state is read again */
  needsResync: boolean
}

export type InvoiceStatus = "created" | "linked" | "processing" | "done" | "cancelled"

export interface SimInvoice {
  readonly reqId: string
  readonly kind: SimKind
  readonly ssid: string
  readonly username: string
  /** stars quantity, premium months or whole TON */
  readonly units: number
  readonly amount: bigint
  readonly ref: string
  readonly comment: string
  /** paid on an EVM chain: the link answers `{"ok":true,"evm":true}` instead of a TON message */
  readonly evm: boolean
  status: InvoiceStatus
  /** signed message reported through confirmReq */
  boc: string | undefined
  /** the account (raw address) the transaction was asked for: the only wallet whose payment counts */
  payer?: string
  /**
   * The `validUntil` (unix seconds) of the latest transaction asked for it: a payment reaching the
   * wallet later is not credited (the request has expired, as Fragment's page shows it).
   */
  payBefore?: number
  processingPolls: number
  /** when the simulator first saw it paid (ms) */
  paidAt?: number
}

/** A fault served instead of (or before) a normal answer. */
export interface Injection {
  /** only for this api method (or page path); any when absent */
  readonly method?: string
  /** answer with this HTTP status and a short body */
  readonly status?: number
  /** the body to answer with `status` (JSON when it starts with "{"; default a short HTML page) */
  readonly body?: string
  /** headers of the `status` answer, e.g. `retry-after` on a 429 */
  readonly headers?: Readonly<Record<string, string>>
  /** answer HTTP 200 with a body that is not JSON */
  readonly malformed?: boolean
  /** wait before answering (then answer normally unless another fault is set) */
  readonly delayMs?: number
  /** answer HTTP 403 with an anti-bot challenge page (as a CDN edge does), instead of Fragment */
  readonly antiBot?: boolean
  /** how many requests it applies to (default 1) */
  readonly times?: number
}

export interface LoggedCall {
  readonly method: string
  readonly fields: Readonly<Record<string, string>>
  readonly status: number
}

export interface Switches {
  needVerify: boolean
  /** the next N inits answer "Price was changed" (each raises the price a little) */
  priceChanges: number
  /** every request answers an anti-bot HTTP 403 (until switched off) */
  blocked: boolean
  /** only invoices whose signed message came through confirmReq are delivered (one client says so) */
  requireConfirm: boolean
  /** state stays "processing" forever once paid */
  neverFinish: boolean
  confirmError: boolean
  priceChanged: boolean
  sessionExpired: boolean
  /** link payloads as url-safe unpadded base64 instead of standard padded */
  urlSafePayloads: boolean
}

/** Every switch off: how a simulator starts, and what `reset` returns it to. */
export const freshSwitches = (): Switches => ({
  needVerify: false,
  priceChanges: 0,
  blocked: false,
  requireConfirm: false,
  neverFinish: false,
  confirmError: false,
  priceChanged: false,
  sessionExpired: false,
  urlSafePayloads: false
})

export const randomHex = (bytes: number): string => randomBytes(bytes).toString("hex")

const REF_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
export const randomRef = (): string =>
  Array.from(randomBytes(9), (byte) => REF_ALPHABET[byte % REF_ALPHABET.length]).join("")

export const makeSession = (): SimSession => ({
  ssid: randomHex(16),
  token: randomHex(20),
  tonToken: randomHex(20),
  hash: randomHex(9),
  latest: undefined,
  needsResync: false
})

export const cookieHeader = (session: SimSession): string =>
  `stel_ssid=${session.ssid}; stel_dt=-300; stel_token=${session.token}; stel_ton_token=${session.tonToken}`

export const parseCookies = (header: string | undefined): Map<string, string> => {
  const cookies = new Map<string, string>()
  for (const part of (header ?? "").split(";")) {
    const at = part.indexOf("=")
    if (at > 0) cookies.set(part.slice(0, at).trim(), part.slice(at + 1).trim())
  }
  return cookies
}

export class SimulatorState {
  readonly sessions = new Map<string, SimSession>()
  readonly invoices = new Map<string, SimInvoice>()
  /** opaque recipient token -> username */
  readonly recipients = new Map<string, string>()
  readonly unknownUsers = new Set<string>()
  readonly nonUsers = new Set<string>()
  readonly cannotGift = new Set<string>()
  readonly subscribed = new Set<string>()
  readonly paidRefs = new Set<string>()
  /** Ref# ids to hand out next (tests reproducing captured payloads), then random ones */
  readonly nextRefs: Array<string> = []
  /** added to every star price by price changes so far */
  starPriceBump = 0n
  readonly injections: Array<Injection & { remaining: number }> = []
  readonly calls = new BoundedLog<LoggedCall>()
  readonly pageLoads = new BoundedLog<{ readonly page: string; readonly hash: string | undefined }>()
  readonly switches: Switches = freshSwitches()
  /** number of the next `req_id` (kept on disk with the invoices, so ids never repeat) */
  nextReq = 1

  /** `magic`: the sandbox's test recipients (see `SimulatorMagic.ts`); off unless given */
  readonly magic: SimulatorMagic

  constructor(magic: SimulatorMagic = new SimulatorMagic(false)) {
    this.magic = magic
  }

  newSession(): SimSession {
    const session = makeSession()
    this.sessions.set(session.ssid, session)
    return session
  }

  /** The session whose four cookies all match, if any. */
  sessionOf(cookieHeaderValue: string | undefined): SimSession | undefined {
    const cookies = parseCookies(cookieHeaderValue)
    const session = this.sessions.get(cookies.get("stel_ssid") ?? "")
    if (session === undefined || cookies.get("stel_token") !== session.token || !cookies.has("stel_dt"))
      return undefined
    return session
  }

  hasTonToken(cookieHeaderValue: string | undefined, session: SimSession): boolean {
    return parseCookies(cookieHeaderValue).get("stel_ton_token") === session.tonToken
  }

  /** Logs an answered call, its signed message (and any long field) as a digest only. */
  logCall(method: string, fields: Readonly<Record<string, string>>, status: number): void {
    this.calls.push({ method, fields: loggedFields(fields), status })
  }

  rotateHashes(): void {
    for (const session of this.sessions.values()) session.hash = randomHex(9)
  }

  newRef(): string {
    return this.nextRefs.shift() ?? randomRef()
  }

  newReqId(): string {
    return `sim${String(this.nextReq++).padStart(6, "0")}${randomHex(4)}`
  }

  invoiceByRef(ref: string): SimInvoice | undefined {
    for (const invoice of this.invoices.values()) if (invoice.ref === ref) return invoice
    return undefined
  }

  /** Takes the next queued fault that applies to this method, if any. */
  takeInjection(method: string): Injection | undefined {
    const index = this.injections.findIndex((i) => i.method === undefined || i.method === method)
    const injection = this.injections[index]
    if (injection === undefined) return undefined
    injection.remaining -= 1
    if (injection.remaining <= 0) this.injections.splice(index, 1)
    return injection
  }
}
