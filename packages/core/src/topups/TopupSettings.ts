import { Context } from "effect"

/** Default quarantine of a closed card top-up's payable amount: a late bank payment may still arrive for it. */
export const PAYABLE_QUARANTINE_MS = 24 * 60 * 60 * 1000

export interface TopupSettingsShape {
  readonly minUzs: number
  readonly maxUzs: number
  /** How long a card top-up waits for its payment before the worker expires it. */
  readonly ttlMs: number
  /** The largest receipt file accepted; the upload's multipart and body limits are built on it. */
  readonly receiptMaxBytes: number
  /**
   * How long the payable amount of a card top-up that was created or left the open states (approved by
   * an operator, cancelled, expired, rejected) stays unavailable to new top-ups, so a late bank payment
   * for it cannot credit another user. Top-ups confirmed by a bank payment are exempt. Default
   * `PAYABLE_QUARANTINE_MS` (24 h) when absent.
   */
  readonly payableQuarantineMs?: number
}

/** The one set of defaults; an override replaces the whole record. */
export const DEFAULT_TOPUP_SETTINGS: TopupSettingsShape = {
  minUzs: 1_000,
  maxUzs: 100_000_000,
  ttlMs: 15 * 60 * 1000,
  receiptMaxBytes: 5 * 1024 * 1024,
  payableQuarantineMs: PAYABLE_QUARANTINE_MS
}

/** The quarantine window of `settings`, falling back to the 24 h default. */
export const payableQuarantineMs = (settings: TopupSettingsShape): number =>
  settings.payableQuarantineMs ?? PAYABLE_QUARANTINE_MS

/** Closed card top-ups touched after this instant still quarantine their payable amount. */
export const quarantineSince = (settings: TopupSettingsShape, now: Date): Date =>
  new Date(now.getTime() - payableQuarantineMs(settings))

/**
 * Top-up limits. Read once, when `TopupService.layer` is built: an override
 * (`Layer.succeed(TopupSettings)({...})`) must be provided to that layer, not around a call. The
 * storage ports never read it; the service passes them what they need (`quarantineSince`).
 */
export const TopupSettings = Context.Reference<TopupSettingsShape>("core/topups/TopupSettings", {
  defaultValue: () => DEFAULT_TOPUP_SETTINGS
})
