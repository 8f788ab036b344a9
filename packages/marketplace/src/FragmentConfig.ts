/**
 * Settings of the Fragment adapter, read once at start:
 * FRAGMENT_URL (default https://fragment.com), FRAGMENT_COOKIES (a Cookie header holding
 * stel_ssid, stel_dt, stel_token and stel_ton_token; secret), FRAGMENT_TIMEOUT (per HTTP request).
 */
import { Config, ConfigProvider, Duration, Effect, Redacted } from "effect"

export interface FragmentOptions {
  readonly baseUrl: string
  /** Cookie header value: "stel_ssid=...; stel_dt=...; stel_token=...; stel_ton_token=..." */
  readonly cookies: Redacted.Redacted<string>
  /** bound on each single HTTP request */
  readonly timeout: Duration.Input
  /** HTTP 429 is retried this many times (default 3) */
  readonly rateLimitRetries?: number
  /** first wait after a 429; doubles and is jittered (default 1 second) */
  readonly rateLimitDelay?: Duration.Input
}

export const REQUIRED_COOKIES = ["stel_ssid", "stel_dt", "stel_token", "stel_ton_token"] as const

/** Names of required cookies missing from a Cookie header (never the values). */
export const missingCookies = (header: string): ReadonlyArray<string> => {
  const names = new Set(
    header.split(";").map((part) => part.split("=")[0]?.trim() ?? "").filter((name) => name.length > 0)
  )
  return REQUIRED_COOKIES.filter((name) => !names.has(name))
}

const Cookies = Config.Redacted("FRAGMENT_COOKIES").pipe(
  Config.mapEffect((cookies) => {
    const missing = missingCookies(Redacted.value(cookies))
    return missing.length === 0
      ? Effect.succeed(cookies)
      : Effect.fail(
        new Config.ConfigError(
          new ConfigProvider.SourceError({ message: `FRAGMENT_COOKIES lacks the cookie(s) ${missing.join(", ")}` })
        )
      )
  })
)

export const FragmentConfig: Config.Config<FragmentOptions> = Config.all({
  baseUrl: Config.URL("FRAGMENT_URL").pipe(
    Config.map((url) => url.origin),
    Config.withDefault("https://fragment.com")
  ),
  cookies: Cookies,
  timeout: Config.Duration("FRAGMENT_TIMEOUT").pipe(Config.withDefault(Duration.seconds(20)))
})
