/**
 * Options of the Fragment adapter. `@resale/config` reads and checks them (FRAGMENT_URL, FRAGMENT_COOKIES,
 * FRAGMENT_SESSIONS with FRAGMENT_COOKIES_<NAME>, FRAGMENT_PROXY, FRAGMENT_TIMEOUT, FRAGMENT_SESSION_HOLD,
 * FRAGMENT_SESSION_WAIT); `@resale/world` passes them to `FragmentMarketplace.layerWith`.
 */
import type { Duration, Redacted } from "effect"

export interface FragmentSession {
  /** "main" for FRAGMENT_COOKIES, the suffix for FRAGMENT_COOKIES_<NAME>; logged, never secret */
  readonly label: string
  /** Cookie header value: "stel_ssid=...; stel_dt=...; stel_token=...; stel_ton_token=..." */
  readonly cookies: Redacted.Redacted<string>
}

export interface FragmentOptions {
  readonly baseUrl: string
  /** the main session's Cookie header (label "main") */
  readonly cookies: Redacted.Redacted<string>
  /** further sessions; purchases of different sessions run side by side */
  readonly moreSessions?: ReadonlyArray<FragmentSession>
  /** bound on each single HTTP request */
  readonly timeout: Duration.Input
  /** HTTP 429 is retried this many times (default 3) */
  readonly rateLimitRetries?: number
  /** first wait after a 429; doubles and is jittered (default 1 second) */
  readonly rateLimitDelay?: Duration.Input
  /** proxy URL (http:// or https://) for every outbound call */
  readonly proxy?: Redacted.Redacted<string>
  /** longest time one purchase keeps its session (default 3 minutes); a dead process frees it then */
  readonly sessionHold?: Duration.Input
  /** longest time a quote waits for a session to be free (default 30 seconds) */
  readonly sessionWait?: Duration.Input
  /** "Price was changed" answers to an init that are re-synced and retried (default 3) */
  readonly priceRetries?: number
}

export const MAIN_SESSION = "main"

export const REQUIRED_COOKIES = ["stel_ssid", "stel_dt", "stel_token", "stel_ton_token"] as const

/** Names of required cookies missing from a Cookie header (never the values). */
export const missingCookies = (header: string): ReadonlyArray<string> => {
  const names = new Set(
    header
      .split(";")
      .map((part) => part.split("=")[0]?.trim() ?? "")
      .filter((name) => name.length > 0)
  )
  return REQUIRED_COOKIES.filter((name) => !names.has(name))
}

/** Every session of the options, the main one first. */
export const sessionsOf = (options: FragmentOptions): ReadonlyArray<FragmentSession> => [
  { label: MAIN_SESSION, cookies: options.cookies },
  ...(options.moreSessions ?? [])
]
