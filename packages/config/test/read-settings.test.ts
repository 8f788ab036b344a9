import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Duration, Effect, Exit, Option, Redacted } from "effect"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import type { Role } from "../src/AppSettings.ts"
import { DEFAULT_ACCOUNT_CAPS } from "@resale/core/caps/CapSettings.ts"
import { DEFAULT_PUSH_HOSTS } from "@resale/core/push/PushEndpointRules.ts"
import { ConfigProblems } from "../src/ConfigProblems.ts"
import { renderEnvExample } from "../src/EnvExample.ts"
import { readSettings } from "../src/ReadSettings.ts"

const read = (env: Record<string, string>, role: Role = "server") =>
  readSettings(role).pipe(Effect.provide(ConfigProvider.layer(ConfigProvider.fromUnknown(env))))

const problemsOf = (env: Record<string, string>, role: Role = "server") =>
  Effect.gen(function* () {
    const exit = yield* Effect.exit(read(env, role))
    if (Exit.isSuccess(exit)) return assert.fail("the settings were accepted")
    const error = yield* Effect.flip(read(env, role))
    assert.instanceOf(error, ConfigProblems)
    return error
  })

const PRODUCTION = {
  SANDBOX: "false",
  TELEGRAM_BOT_TOKEN: "123:production-bot-token",
  SESSION_SECRET: "s".repeat(40),
  ADMIN_TOKEN: "a".repeat(24),
  FRAGMENT_COOKIES: "stel_ssid=1; stel_dt=-1; stel_token=2; stel_ton_token=3",
  HOT_WALLET_MNEMONIC: "word ".repeat(24).trim()
}

describe("readSettings", () => {
  it.effect("every bad setting is reported at once, one line naming the variable and what is expected", () =>
    Effect.gen(function* () {
      const error = yield* problemsOf({
        PORT: "eighty",
        WORKER_CONCURRENCY: "0",
        ORDER_LEASE: "soon",
        DATABASE_URL: "mysql://db/resale",
        TELEGRAM_API_URL: "api.telegram.org",
        SANDBOX: "maybe",
        FRAGMENT_COOKIES: "stel_ssid=secret-value"
      })
      // SANDBOX unreadable and a Fragment cookie given: production, so its missing secrets are listed too.
      assert.deepStrictEqual(
        error.problems.map((line) => line.split(":")[0]),
        [
          "SANDBOX",
          "PORT",
          "DATABASE_URL",
          "TELEGRAM_API_URL",
          "FRAGMENT_COOKIES",
          "WORKER_CONCURRENCY",
          "ORDER_LEASE",
          "TELEGRAM_BOT_TOKEN",
          "SESSION_SECRET",
          "ADMIN_TOKEN",
          "HOT_WALLET_MNEMONIC"
        ]
      )
      assert.include(error.report, `PORT: expected a port number from 0 to 65535, got "eighty"`)
      assert.include(error.report, `ORDER_LEASE: expected a duration such as "5 seconds" or "1500 millis", got "soon"`)
      assert.include(
        error.report,
        "FRAGMENT_COOKIES: expected a Cookie header with stel_ssid, stel_dt, stel_token, stel_ton_token (missing: stel_dt, stel_token, stel_ton_token)"
      )
      // Secrets are named, never echoed.
      assert.notInclude(error.report, "secret-value")
      assert.notInclude(error.report, "mysql://db")
      assert.notInclude(error.report, "    at ")
    })
  )

  it.effect("production refuses to start without its secrets, naming each one", () =>
    Effect.gen(function* () {
      const error = yield* problemsOf({ SANDBOX: "false", ADMIN_TOKEN: "short-operator-token" })
      assert.strictEqual(error.mode, "production mode: SANDBOX=false")
      assert.deepStrictEqual(error.problems, [
        "TELEGRAM_BOT_TOKEN: required outside sandbox mode (the bot's token from @BotFather)",
        "SESSION_SECRET: required outside sandbox mode (at least 32 random characters)",
        "ADMIN_TOKEN: too weak: at least 24 characters are required outside sandbox mode",
        "HOT_WALLET_MNEMONIC: required outside sandbox mode (the 24 words of the wallet that pays Fragment)",
        "FRAGMENT_COOKIES: required outside sandbox mode (a signed-in Fragment session)"
      ])
      // Without the worker in process the hot wallet is not the server's business; a missing token is.
      const apart = yield* problemsOf({ ...PRODUCTION, WORKER: "false", HOT_WALLET_MNEMONIC: "", ADMIN_TOKEN: "" })
      assert.deepStrictEqual(apart.problems, [
        "ADMIN_TOKEN: required outside sandbox mode (at least 24 random characters)"
      ])
    })
  )

  it.effect("a production setting without SANDBOX means production, never a silent sandbox", () =>
    Effect.gen(function* () {
      const error = yield* problemsOf({ TELEGRAM_BOT_TOKEN: "123:token" })
      assert.strictEqual(error.mode, "production mode: SANDBOX unset and TELEGRAM_BOT_TOKEN given")
      const sandbox = yield* read({ DATABASE_URL: "postgres://u@127.0.0.1/db" })
      assert.isTrue(sandbox.sandbox)
      assert.strictEqual(sandbox.host, "127.0.0.1")
    })
  )

  it.effect("sandbox mode refuses a real chain or Fragment, naming the settings and never their values", () =>
    Effect.gen(function* () {
      const chain = yield* problemsOf({ SANDBOX: "true", TONCENTER_URL: "https://toncenter.com/api/v2/jsonRPC" })
      assert.strictEqual(chain.mode, "sandbox mode: SANDBOX=true")
      assert.deepStrictEqual(chain.problems, [
        "TONCENTER_URL: refused in sandbox mode (sandbox sign-in, faucet and the public hot wallet phrase would " +
          "face a real chain or Fragment): set SANDBOX=false with production's secrets, or unset TONCENTER_URL to " +
          "use the sandbox world"
      ])
      const both = yield* problemsOf({
        SANDBOX: "true",
        TONCENTER_URL: "https://testnet.toncenter.com/api/v2/jsonRPC",
        FRAGMENT_COOKIES: "stel_ssid=s3cr3t; stel_dt=-1; stel_token=t0k3n; stel_ton_token=t0n"
      })
      assert.deepStrictEqual(
        both.problems.map((p) => p.split(": ")[0]),
        ["TONCENTER_URL, FRAGMENT_COOKIES"]
      )
      assert.include(both.report, "unset TONCENTER_URL and FRAGMENT_COOKIES")
      assert.notInclude(both.report, "s3cr3t")
      assert.notInclude(both.report, "t0k3n")
      // Unset SANDBOX with only a chain is sandbox by the hints: refused the same way, not run half-real.
      const unset = yield* problemsOf({ TONCENTER_URL: "https://toncenter.com/api/v2/jsonRPC" })
      assert.deepStrictEqual(
        unset.problems.map((p) => p.split(": ")[0]),
        ["TONCENTER_URL"]
      )
      // A malformed cookie is still refused for being there, besides its own problem.
      const bad = yield* problemsOf({ SANDBOX: "true", FRAGMENT_COOKIES: "stel_ssid=s3cr3t" }, "cli")
      assert.deepStrictEqual(
        bad.problems.map((p) => p.split(": ")[0]),
        ["FRAGMENT_COOKIES", "FRAGMENT_COOKIES"]
      )
      assert.notInclude(bad.report, "s3cr3t")
      const sandbox = yield* read({ SANDBOX: "true" })
      assert.isTrue(Option.isNone(sandbox.toncenter) && Option.isNone(sandbox.fragment))
    })
  )

  it.effect("production secrets come from the environment only: none derives from a constant", () =>
    Effect.gen(function* () {
      const one = yield* read(PRODUCTION)
      const two = yield* read({ ...PRODUCTION, SESSION_SECRET: "t".repeat(40) })
      assert.isFalse(one.sandbox)
      assert.strictEqual(Redacted.value(one.sessionSecret), "s".repeat(40))
      assert.strictEqual(Redacted.value(one.adminToken), "a".repeat(24))
      assert.isFalse(one.adminTokenGenerated)
      // The webhook secret follows the session secret (a secret), not the bot token or a constant.
      assert.notStrictEqual(Redacted.value(one.webhookSecret), Redacted.value(two.webhookSecret))
      assert.isTrue(Option.isSome(one.fragment) && Option.isSome(one.toncenter))
      assert.isNull(one.paymentCard)
    })
  )

  it.effect("the worker outside sandbox needs its database and hot wallet; the CLI needs neither", () =>
    Effect.gen(function* () {
      const error = yield* problemsOf({ SANDBOX: "false" }, "worker")
      assert.deepStrictEqual(
        error.problems.map((p) => p.split(":")[0]),
        ["HOT_WALLET_MNEMONIC", "DATABASE_URL", "FRAGMENT_COOKIES"]
      )
      const cli = yield* read({ SANDBOX: "false" }, "cli")
      assert.isFalse(cli.sandbox)
    })
  )
})

describe("secrets of the bot webhook and of the logs", () => {
  it.effect("the header secret is another value than the path secret, derived or set; never the same", () =>
    Effect.gen(function* () {
      const derived = yield* read(PRODUCTION)
      const path = Redacted.value(derived.webhookSecret)
      const header = Redacted.value(derived.webhookHeaderSecret)
      assert.match(header, /^[0-9a-f]{32}$/)
      assert.notStrictEqual(header, path)
      // A set path secret leaves the header derived from SESSION_SECRET, not from the path.
      const setPath = yield* read({ ...PRODUCTION, TELEGRAM_WEBHOOK_SECRET: "operator-path-secret" })
      assert.strictEqual(Redacted.value(setPath.webhookSecret), "operator-path-secret")
      assert.strictEqual(Redacted.value(setPath.webhookHeaderSecret), header)
      const setBoth = yield* read({ ...PRODUCTION, TELEGRAM_WEBHOOK_HEADER_SECRET: "operator-header_secret-1" })
      assert.strictEqual(Redacted.value(setBoth.webhookHeaderSecret), "operator-header_secret-1")
      const same = yield* problemsOf({
        ...PRODUCTION,
        TELEGRAM_WEBHOOK_SECRET: "same-value-twice",
        TELEGRAM_WEBHOOK_HEADER_SECRET: "same-value-twice"
      })
      assert.deepStrictEqual(
        same.problems.map((p) => p.split(":")[0]),
        ["TELEGRAM_WEBHOOK_HEADER_SECRET"]
      )
      const badShape = yield* problemsOf({ ...PRODUCTION, TELEGRAM_WEBHOOK_HEADER_SECRET: "no spaces allowed" })
      assert.deepStrictEqual(badShape.problems, [
        "TELEGRAM_WEBHOOK_HEADER_SECRET: expected 1 to 256 letters, digits, _ or -"
      ])
    })
  )

  it.effect("every secret the catalogue marks, its parts and the derived keys are given to the log scrubber", () =>
    Effect.gen(function* () {
      const settings = yield* read({
        ...PRODUCTION,
        DATABASE_URL: "postgres://app:db-pass-4242@db/resale",
        FRAGMENT_PROXY: "http://proxyuser:proxy%2Fpass-77@proxy.example:3128",
        GIFT_SENDERS: "user,girl",
        GIFT_SENDER_USER_SESSION: "mtcute-session-of-user-account",
        OTEL_EXPORTER_OTLP_HEADERS: "x-api-key=otlp-key-123456,authorization=Bearer%20otlp-bearer-654321"
      })
      const texts = settings.secretTexts()
      for (const secret of [
        PRODUCTION.TELEGRAM_BOT_TOKEN,
        PRODUCTION.SESSION_SECRET,
        PRODUCTION.FRAGMENT_COOKIES,
        "db-pass-4242",
        "proxy%2Fpass-77",
        "proxy/pass-77",
        "mtcute-session-of-user-account",
        "otlp-key-123456",
        "Bearer otlp-bearer-654321",
        Redacted.value(settings.webhookSecret),
        Redacted.value(settings.webhookHeaderSecret)
      ])
        assert.include(texts, secret)
      // Names and non-secret settings are not.
      assert.notInclude(texts, "user,girl")
      // FRAGMENT_PROXY is checked as a URL and, a secret, never echoed.
      const bad = yield* problemsOf({ ...PRODUCTION, FRAGMENT_PROXY: "socks5://u:p@h" })
      assert.deepStrictEqual(bad.problems, ["FRAGMENT_PROXY: expected an http:// or https:// URL"])
    })
  )
})

describe("integrators' webhooks", () => {
  it.effect("WEBHOOKS_ALLOW_LOOPBACK is off by default, allowed in sandbox, refused in production", () =>
    Effect.gen(function* () {
      assert.isFalse((yield* read({})).webhooksAllowLoopback)
      assert.isTrue((yield* read({ WEBHOOKS_ALLOW_LOOPBACK: "true" })).webhooksAllowLoopback)
      const error = yield* problemsOf({ ...PRODUCTION, WEBHOOKS_ALLOW_LOOPBACK: "true" })
      assert.deepStrictEqual(error.problems, [
        "WEBHOOKS_ALLOW_LOOPBACK: sandbox only (it lets webhooks target this machine)"
      ])
    })
  )
})

describe("sign-in window and trusted proxies", () => {
  it.effect("LOGIN_MAX_AGE defaults to 10 minutes; TRUSTED_PROXIES takes addresses and CIDR ranges only", () =>
    Effect.gen(function* () {
      const settings = yield* read({ TRUSTED_PROXIES: "127.0.0.1, 10.0.0.0/8 ,fd00::/8" }, "server")
      assert.strictEqual(Duration.toMinutes(settings.loginMaxAge), 10)
      assert.deepStrictEqual(settings.trustedProxies, ["127.0.0.1", "10.0.0.0/8", "fd00::/8"])
      const error = yield* problemsOf({ TRUSTED_PROXIES: "127.0.0.1,proxy.local", LOGIN_MAX_AGE: "soon" }, "server")
      assert.deepStrictEqual(
        error.problems.map((p) => p.split(":")[0]),
        ["LOGIN_MAX_AGE", "TRUSTED_PROXIES"]
      )
    })
  )
})

describe("Fragment sessions and proxy", () => {
  it.effect("FRAGMENT_SESSIONS names more sessions, each with its own checked cookies; the proxy must be a URL", () =>
    Effect.gen(function* () {
      const error = yield* problemsOf({
        ...PRODUCTION,
        FRAGMENT_SESSIONS: "second,third",
        FRAGMENT_COOKIES_SECOND: "stel_ssid=s3cr3t",
        FRAGMENT_PROXY: "socks5://proxy:1080"
      })
      assert.deepStrictEqual(error.problems.map((p) => p.split(":")[0]).sort(), [
        "FRAGMENT_COOKIES_SECOND",
        "FRAGMENT_COOKIES_THIRD",
        "FRAGMENT_PROXY"
      ])
      assert.notInclude(error.report, "s3cr3t")
      const ok = yield* read({
        ...PRODUCTION,
        FRAGMENT_SESSIONS: "second",
        FRAGMENT_COOKIES_SECOND: "stel_ssid=4; stel_dt=-1; stel_token=5; stel_ton_token=6",
        FRAGMENT_PROXY: "http://user:pw@proxy.example:3128"
      })
      const fragment = Option.getOrThrow(ok.fragment)
      assert.deepStrictEqual(
        fragment.moreSessions.map((s) => s.label),
        ["second"]
      )
      assert.strictEqual(Redacted.value(Option.getOrThrow(fragment.proxy)), "http://user:pw@proxy.example:3128")
    })
  )
})

describe("the core's caps and push hosts", () => {
  it.effect("CAP_* and PUSH_ALLOWED_HOSTS reach the settings; unset, the core's defaults", () =>
    Effect.gen(function* () {
      const defaults = yield* read({})
      assert.deepStrictEqual(defaults.accountCaps, DEFAULT_ACCOUNT_CAPS)
      assert.deepStrictEqual(defaults.pushAllowedHosts, DEFAULT_PUSH_HOSTS)
      const given = yield* read({ CAP_OPEN_TOPUPS: "7", PUSH_ALLOWED_HOSTS: " Push.Example , *.other.example" })
      assert.deepStrictEqual(given.accountCaps, { ...DEFAULT_ACCOUNT_CAPS, openCardTopups: 7 })
      assert.deepStrictEqual(given.pushAllowedHosts, ["push.example", "*.other.example"])
      const error = yield* problemsOf({ CAP_TICKETS_PER_DAY: "5000" })
      assert.deepStrictEqual(error.problems, ["CAP_TICKETS_PER_DAY: expected a whole number from 1 to 1000, got 5000"])
    })
  )
})

describe(".env.example", () => {
  it("lists every setting the code reads, with its default and meaning", () => {
    const file = readFileSync(fileURLToPath(new URL("../../../.env.example", import.meta.url)), "utf8")
    assert.strictEqual(file, renderEnvExample(), "regenerate .env.example from packages/config (see its README)")
    assert.include(file, "#HOST=127.0.0.1")
    assert.include(file, "#SESSION_SECRET=")
  })
})
