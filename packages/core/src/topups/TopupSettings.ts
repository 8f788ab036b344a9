import { Context } from "effect"

/** Default quarantine of a closed card top-up's payable amount: a late bank payment may still arrive for it. */
export const PAYABLE_QUARANTINE_MS = 24 * 60 * 60 * 1000

export interface TopupSettingsShape {
  readonly minUzs: number
  readonly maxUzs: number
  /** How long a card top-up waits for its payment before the worker expires it. */
  readonly ttlMs: number
  readonly receiptMaxBytes: number
  /**
   * How long the payable amount of a card top-up that was created or left the open states (approved by
   * an operator, cancelled, expired, rejected) stays unavailable to new top-ups, so a late bank payment
   * for it cannot credit another user. Top-ups confirmed by a bank payment are exempt. Default
   * `PAYABLE_QUARANTINE_MS` (24 h) when absent.
   */
  readonly payableQuarantineMs?: number
}

/** The quarantine window of `settings`, falling back to the 24 h default. */
export const payableQuarantineMs = (settings: TopupSettingsShape): number =>
  settings.payableQuarantineMs ?? PAYABLE_QUARANTINE_MS

/** Top-up limits; defaults below, override with `Layer.succeed(TopupSettings, {...})` from config. */
export const TopupSettings = Context.Reference<TopupSettingsShape>("core/topups/TopupSettings", {
  defaultValue: () => ({
    minUzs: 1_000,
    maxUzs: 100_000_000,
    ttlMs: 15 * 60 * 1000,
    receiptMaxBytes: 10 * 1024 * 1024,
    payableQuarantineMs: PAYABLE_QUARANTINE_MS
  })
})
