import type { TopupSettingsShape } from "@resale/core/topups/TopupSettings.ts"

/**
 * The bounds of a receipt upload, all built on the one receipt limit (`TopupSettings.receiptMaxBytes`).
 * Each layer that enforces one reads the settings when it is built, so an override reaches every use.
 */
export interface ReceiptLimits {
  /** The file itself: larger answers 400 "File too large" (the core checks the same bound). */
  readonly file: number
  /** The multipart body the contract parses: the file and the few fields beside it. */
  readonly parts: number
  /** The whole request body (the server's bound, and what the web gateway reads of a browser's form). */
  readonly body: number
}

/** Multipart fields besides the file: the amount, boundaries and part headers. */
const PARTS_OVERHEAD = 64 * 1024
/** A browser's form besides the file: also the CSRF token and the idempotency key. */
const FORM_OVERHEAD = 256 * 1024

export const receiptLimits = (settings: TopupSettingsShape): ReceiptLimits => ({
  file: settings.receiptMaxBytes,
  parts: settings.receiptMaxBytes + PARTS_OVERHEAD,
  body: settings.receiptMaxBytes + FORM_OVERHEAD
})
