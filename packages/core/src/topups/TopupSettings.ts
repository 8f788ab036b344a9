import { Context } from "effect"

export interface TopupSettingsShape {
  readonly minUzs: number
  readonly maxUzs: number
  /** How long a card top-up waits for its payment before the worker expires it. */
  readonly ttlMs: number
  readonly receiptMaxBytes: number
}

/** Top-up limits; defaults below, override with `Layer.succeed(TopupSettings, {...})` from config. */
export const TopupSettings = Context.Reference<TopupSettingsShape>("core/topups/TopupSettings", {
  defaultValue: () => ({
    minUzs: 1_000,
    maxUzs: 100_000_000,
    ttlMs: 15 * 60 * 1000,
    receiptMaxBytes: 10 * 1024 * 1024
  })
})
