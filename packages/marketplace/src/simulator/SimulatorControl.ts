/**
 * The test and sandbox handle on a running Fragment simulator: flip switches, queue faults,
 * declare special users, mark payments and read what the simulator saw.
 */
import {
  cookieHeader,
  freshSwitches,
  type Injection,
  type LoggedCall,
  type SimInvoice,
  type SimulatorState,
  type Switches
} from "./SimulatorState.ts"

export interface SimulatorControl {
  /** every session gets a new api hash; old hashes answer "Bad request" */
  readonly rotateHash: () => void
  /** a second, independent cookie session (its Cookie header) */
  readonly newSession: () => string
  /** search answers "No Telegram users found." */
  readonly unknownUser: (username: string) => void
  /** search answers "Please enter a username assigned to a user." (bots, channels) */
  readonly nonUser: (username: string) => void
  /** stars search answers "You can't gift Telegram Stars to this account at this moment." */
  readonly cannotGift: (username: string) => void
  /** premium init answers "This account is already subscribed to Telegram Premium." */
  readonly subscribed: (username: string) => void
  readonly set: (switches: Partial<Switches>) => void
  /** queue a fault (HTTP status, malformed JSON, delay) for the next matching request(s) */
  readonly inject: (fault: Injection) => void
  /** the next invoices get these Ref# ids (to reproduce captured payloads byte for byte) */
  readonly nextRefs: (refs: ReadonlyArray<string>) => void
  /** treat the payment with this Ref# as received (tests without a chain) */
  readonly markPaid: (ref: string) => void
  readonly invoice: (reqId: string) => Readonly<SimInvoice> | undefined
  readonly invoiceByRef: (ref: string) => Readonly<SimInvoice> | undefined
  readonly invoices: () => ReadonlyArray<Readonly<SimInvoice>>
  /** the newest api calls seen (optionally one method only), in order; `boc` as its digest (`SimulatorCallLog.ts`) */
  readonly calls: (method?: string) => ReadonlyArray<LoggedCall>
  readonly pageLoads: () => ReadonlyArray<{ readonly page: string; readonly hash: string | undefined }>
  /** sandbox chain hook: is this payment comment's invoice one whose payment is to be lost (`sandbox_lost_payment`)? */
  readonly dropsPayment: (comment: string) => boolean
  /** switches off, faults and logs cleared, special users forgotten; sessions and invoices stay */
  readonly reset: () => void
}

export const makeControl = (state: SimulatorState): SimulatorControl => ({
  rotateHash: () => state.rotateHashes(),
  newSession: () => cookieHeader(state.newSession()),
  unknownUser: (username) => void state.unknownUsers.add(username.replace(/^@/, "").toLowerCase()),
  nonUser: (username) => void state.nonUsers.add(username.replace(/^@/, "").toLowerCase()),
  cannotGift: (username) => void state.cannotGift.add(username.replace(/^@/, "").toLowerCase()),
  subscribed: (username) => void state.subscribed.add(username.replace(/^@/, "").toLowerCase()),
  set: (switches) => void Object.assign(state.switches, switches),
  inject: (fault) => void state.injections.push({ ...fault, remaining: fault.times ?? 1 }),
  nextRefs: (refs) => void state.nextRefs.push(...refs),
  markPaid: (ref) => void state.paidRefs.add(ref),
  invoice: (reqId) => state.invoices.get(reqId),
  invoiceByRef: (ref) => state.invoiceByRef(ref),
  invoices: () => [...state.invoices.values()],
  calls: (method) => state.calls.all().filter((c) => method === undefined || c.method === method),
  pageLoads: () => state.pageLoads.all(),
  dropsPayment: (comment) => state.magic.dropsPayment(comment),
  reset: () => {
    Object.assign(state.switches, freshSwitches())
    state.injections.length = 0
    state.nextRefs.length = 0
    state.calls.clear()
    state.pageLoads.clear()
    for (const set of [state.unknownUsers, state.nonUsers, state.cannotGift, state.subscribed]) set.clear()
  }
})
