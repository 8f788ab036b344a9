/**
 * Settings of the Fragment adapter, read once at start:
 * - FRAGMENT_URL (default https://fragment.com);
 * - FRAGMENT_COOKIES: the main session's Cookie header (stel_ssid, stel_dt, stel_token and
 *   stel_ton_token; secret); FRAGMENT_SESSIONS (names) with FRAGMENT_COOKIES_<NAME> each: more
 *   sessions, bought through side by side;
 * - FRAGMENT_PROXY: an http(s):// proxy every call to Fragment goes through (secret: may hold a password);
 * - FRAGMENT_TIMEOUT (per HTTP request), FRAGMENT_SESSION_HOLD (how long one purchase may keep its
 *   session to itself), FRAGMENT_SESSION_WAIT (how long a quote waits for a free session).
 */
import { Config, ConfigProvider, Duration, Effect, Option, Redacted } from "effect"

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

const configError = (message: string) => new Config.ConfigError(new ConfigProvider.SourceError({ message }))

const checkedCookies = (name: string) =>
  Config.Redacted(name).pipe(
    Config.mapEffect((cookies) => {
      const missing = missingCookies(Redacted.value(cookies))
      return missing.length === 0
        ? Effect.succeed(cookies)
        : Effect.fail(configError(`${name} lacks the cookie(s) ${missing.join(", ")}`))
    })
  )

/** FRAGMENT_SESSIONS="a,b": more sessions, each with its Cookie header in FRAGMENT_COOKIES_<NAME>. */
const MoreSessions: Config.Config<ReadonlyArray<FragmentSession>> = Config.String("FRAGMENT_SESSIONS").pipe(
  Config.withDefault(""),
  Config.mapEffect((text) => {
    const names = text
      .split(",")
      .map((n) => n.trim())
      .filter((n) => n.length > 0)
    const bad = names.find((n) => !/^[A-Za-z0-9_]{1,32}$/.test(n) || n.toLowerCase() === MAIN_SESSION)
    return bad === undefined
      ? Effect.succeed(names)
      : Effect.fail(
          configError(`FRAGMENT_SESSIONS: "${bad}" is not a session name (letters, digits, _; not "${MAIN_SESSION}")`)
        )
  }),
  Config.flatMap((names) =>
    Config.all(
      names.map((name) =>
        checkedCookies(`FRAGMENT_COOKIES_${name.toUpperCase()}`).pipe(
          Config.map((cookies): FragmentSession => ({ label: name, cookies }))
        )
      )
    )
  )
)

const Proxy = Config.option(Config.Redacted("FRAGMENT_PROXY")).pipe(
  Config.mapEffect((proxy) => {
    if (Option.isNone(proxy)) return Effect.succeed(undefined)
    const ok =
      URL.canParse(Redacted.value(proxy.value)) && /^https?:$/.test(new URL(Redacted.value(proxy.value)).protocol)
    return ok
      ? Effect.succeed(proxy.value)
      : Effect.fail(configError("FRAGMENT_PROXY must be an http:// or https:// URL"))
  })
)

export const FragmentConfig: Config.Config<FragmentOptions> = Config.all({
  baseUrl: Config.URL("FRAGMENT_URL").pipe(
    Config.map((url) => url.origin),
    Config.withDefault("https://fragment.com")
  ),
  cookies: checkedCookies("FRAGMENT_COOKIES"),
  moreSessions: MoreSessions,
  timeout: Config.Duration("FRAGMENT_TIMEOUT").pipe(Config.withDefault(Duration.seconds(20))),
  proxy: Proxy,
  sessionHold: Config.Duration("FRAGMENT_SESSION_HOLD").pipe(Config.withDefault(Duration.minutes(3))),
  sessionWait: Config.Duration("FRAGMENT_SESSION_WAIT").pipe(Config.withDefault(Duration.seconds(30)))
}).pipe(Config.map(({ proxy, ...rest }) => (proxy === undefined ? rest : { ...rest, proxy })))

/** Every session of the options, the main one first. */
export const sessionsOf = (options: FragmentOptions): ReadonlyArray<FragmentSession> => [
  { label: MAIN_SESSION, cookies: options.cookies },
  ...(options.moreSessions ?? [])
]
