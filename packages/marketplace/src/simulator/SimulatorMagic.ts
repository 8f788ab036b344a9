/**
 * The sandbox's test recipients, like a card processor's test card numbers: Telegram usernames for
 * which the simulated Fragment (and, through it, the sandbox chain) misbehaves on purpose, so every
 * retry, refund, reconciliation and operator path can be walked by hand. Only the simulator knows
 * them, and only when started with `magic` (the sandbox world does); the production adapter sends
 * them to fragment.com like any other name.
 */
import type { SimInvoice } from "./SimulatorState.ts"

export const FRAGMENT_MAGIC = {
  /** search answers "No Telegram users found.": refused, nothing paid, refunded at once */
  notFound: "sandbox_not_found",
  /** search answers only after the adapter gave up: a timeout, nothing paid, retried with backoff */
  timeout: "sandbox_timeout",
  /** paid, but Fragment reports the delivery only `lateMs` after the payment: completed late */
  late: "sandbox_late",
  /** paid, Fragment never reports the delivery and refuses the signed message: needs attention */
  unknown: "sandbox_unknown",
  /** the chain drops every other payment (the first, third, ...): it never lands, retried, then delivered */
  lostPayment: "sandbox_lost_payment"
} as const

export interface MagicOptions {
  /** how long after the payment `sandbox_late` is delivered (default 90 s: past the worker's 60 s wait) */
  readonly lateMs?: number
  /** how long `sandbox_timeout`'s search takes to answer (default 20 s: past the adapter's timeout) */
  readonly timeoutMs?: number
}

const normalized = (name: string): string => name.trim().replace(/^@/, "").toLowerCase()

/** The magic of a running simulator, or none of it when started without `magic`. */
export class SimulatorMagic {
  private readonly lateMs: number
  readonly timeoutMs: number
  /** refs of invoices whose payment the chain is to drop */
  private readonly dropRefs = new Set<string>()
  private dropNext = true
  readonly enabled: boolean

  constructor(enabled: boolean, options: MagicOptions = {}) {
    this.enabled = enabled
    this.lateMs = options.lateMs ?? 90_000
    this.timeoutMs = options.timeoutMs ?? 20_000
  }

  private is(name: string, which: keyof typeof FRAGMENT_MAGIC): boolean {
    return this.enabled && normalized(name) === FRAGMENT_MAGIC[which]
  }

  /** Fragment's refusal of a search, if the name is a refused one. */
  searchRefusal(name: string): string | undefined {
    return this.is(name, "notFound") ? "No Telegram users found." : undefined
  }

  /** How long a search for this name waits before answering (0: at once). */
  searchDelayMs(name: string): number {
    return this.is(name, "timeout") ? this.timeoutMs : 0
  }

  /** A new invoice: a lost-payment recipient's invoices alternate between dropped and landing. */
  opened(invoice: SimInvoice): void {
    if (!this.is(invoice.username, "lostPayment")) return
    if (this.dropNext) this.dropRefs.add(invoice.ref)
    this.dropNext = !this.dropNext
  }

  /** Whether Fragment holds back the "done" of a paid invoice at `nowMs`. */
  holdsDelivery(invoice: SimInvoice, paidAtMs: number, nowMs: number): boolean {
    if (this.is(invoice.username, "unknown")) return true
    return this.is(invoice.username, "late") && nowMs < paidAtMs + this.lateMs
  }

  /** Whether `confirmReq` for this invoice is refused ("Transaction not found."). */
  refusesConfirm(invoice: SimInvoice): boolean {
    return this.is(invoice.username, "unknown")
  }

  /** Which payments are still to be lost, for the simulator's state on disk. */
  persisted(): { readonly dropRefs: Array<string>; readonly dropNext: boolean } {
    return { dropRefs: [...this.dropRefs], dropNext: this.dropNext }
  }

  restore(saved: { readonly dropRefs: ReadonlyArray<string>; readonly dropNext: boolean }): void {
    for (const ref of saved.dropRefs) this.dropRefs.add(ref)
    this.dropNext = saved.dropNext
  }

  /** For the sandbox chain: does a payment with this comment pay an invoice whose payment is to be lost? */
  dropsPayment(comment: string): boolean {
    const ref = /Ref#([A-Za-z0-9]+)/.exec(comment)?.[1]
    return ref !== undefined && this.dropRefs.has(ref)
  }
}
