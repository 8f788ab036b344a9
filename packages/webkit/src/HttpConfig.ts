import { AppConfig, type AppSettings } from "@resale/config"
import { type AccountCapsShape, DEFAULT_ACCOUNT_CAPS } from "@resale/core/caps/CapSettings.ts"
import { DEFAULT_PUSH_HOSTS } from "@resale/core/push/PushEndpointRules.ts"
import { Context, Duration, Effect, Layer, Option, Redacted } from "effect"

/**
 * Outside sandbox every secret comes from the environment (the start is refused otherwise); in
 * sandbox mode the login widget verifies against a fixed sandbox token, as no real bot exists.
 */
const SANDBOX_BOT_TOKEN = "sandbox:bot-token"

/** The public explorer of the configured TON network; none for the sandbox's emulated chain. */
const explorerOf = (app: AppSettings): string | null =>
  app.sandbox || Option.isNone(app.toncenter)
    ? null
    : app.toncenter.value.network === "testnet"
      ? "https://testnet.tonviewer.com"
      : "https://tonviewer.com"

export const serverSettings = (app: AppSettings): HttpSettings => ({
  host: app.host,
  port: app.port,
  dataDir: app.dataDir,
  databaseUrl: app.databaseUrl,
  adminToken: app.adminToken,
  adminTokenGenerated: app.adminTokenGenerated,
  metricsToken: app.metricsToken,
  botToken: Option.getOrElse(app.botToken, () => {
    if (!app.sandbox) throw new Error("TELEGRAM_BOT_TOKEN is checked at start outside sandbox mode")
    return Redacted.make(SANDBOX_BOT_TOKEN)
  }),
  botUsername: Option.getOrNull(app.botUsername),
  webhookSecret: app.webhookSecret,
  webhookHeaderSecret: app.webhookHeaderSecret,
  telegramApiUrl: app.telegramApiUrl,
  publicUrl: app.publicUrl,
  sandbox: app.sandbox,
  explorerUrl: explorerOf(app),
  cookieSecret: app.sessionSecret,
  paymentCard: app.paymentCard,
  logRequests: app.logRequests,
  loginMaxAgeSeconds: Math.max(1, Math.floor(Duration.toSeconds(app.loginMaxAge))),
  trustedProxies: app.trustedProxies,
  webhooksAllowLoopback: app.webhooksAllowLoopback,
  accountCaps: app.accountCaps,
  pushAllowedHosts: app.pushAllowedHosts,
  pgPoolMax: app.pgPoolMax,
  vapidPublicKey: Option.map(app.vapid, (keys) => keys.publicKey)
})

/** Settings of the HTTP server, read and validated once at start. */
export interface HttpSettings {
  /** Address the server listens on (`HOST`, default 127.0.0.1). */
  readonly host: string
  readonly port: number
  readonly dataDir: string
  readonly databaseUrl: Option.Option<Redacted.Redacted<string>>
  readonly adminToken: Redacted.Redacted<string>
  /** True when ADMIN_TOKEN was not set and a fresh one was generated (it is then printed). */
  readonly adminTokenGenerated: boolean
  /** Bearer token of `/metrics` (`METRICS_TOKEN`); none: `/metrics` is off outside sandbox (`MetricsAccess.ts`). */
  readonly metricsToken: Option.Option<Redacted.Redacted<string>>
  readonly botToken: Redacted.Redacted<string>
  readonly botUsername: string | null
  /** Path secret of the bot webhook (`/v2/bot/webhook/<secret>`). */
  readonly webhookSecret: Redacted.Redacted<string>
  /** The bot webhook's `X-Telegram-Bot-Api-Secret-Token` (`secret_token` of setWebhook): another value. */
  readonly webhookHeaderSecret: Redacted.Redacted<string>
  readonly telegramApiUrl: string
  readonly publicUrl: string
  readonly sandbox: boolean
  /** Where the shopper's pages link an order's payment (a public TON explorer of the network); null in sandbox. */
  readonly explorerUrl: string | null
  /** Key of the session cookie signatures. */
  readonly cookieSecret: Redacted.Redacted<string>
  /** Card number shown to users paying a top-up. */
  readonly paymentCard: string | null
  /** One log line per request (off by default: it costs a third of the throughput). */
  readonly logRequests: boolean
  /** How long a Telegram sign-in payload is accepted after it was issued (`LOGIN_MAX_AGE`). */
  readonly loginMaxAgeSeconds: number
  /** Reverse proxies in front of the server (`TRUSTED_PROXIES`), for the client address (`ClientAddress.ts`). */
  readonly trustedProxies: ReadonlyArray<string>
  /** Sandbox only (`WEBHOOKS_ALLOW_LOOPBACK`): integrators may register loopback webhook targets. */
  readonly webhooksAllowLoopback: boolean
  /** Per-account caps (`CAP_*`) of the core's use cases. */
  readonly accountCaps: AccountCapsShape
  /** Hosts web push subscriptions may point to (`PUSH_ALLOWED_HOSTS`). */
  readonly pushAllowedHosts: ReadonlyArray<string>
  /** Connections to `DATABASE_URL` (`PG_POOL_MAX`). */
  readonly pgPoolMax: number
  /** `VAPID_PUBLIC_KEY`; none: sandbox keys from the data directory, or no web push. */
  readonly vapidPublicKey: Option.Option<string>
}

export class HttpConfig extends Context.Service<HttpConfig, HttpSettings>()("http/server/HttpConfig") {
  /** The server's view of the one configuration (`@resale/config`: every variable, the mode, production checks). */
  static readonly layer = Layer.effect(
    HttpConfig,
    Effect.map(AppConfig, (app) => HttpConfig.of(serverSettings(app)))
  )

  /** Fixed settings for tests. */
  static readonly layerTest = (overrides: Partial<HttpSettings> = {}) =>
    Layer.succeed(HttpConfig)(
      HttpConfig.of({
        host: "127.0.0.1",
        port: 0,
        dataDir: ".data/test",
        databaseUrl: Option.none(),
        adminToken: Redacted.make("test-admin-token"),
        adminTokenGenerated: false,
        metricsToken: Option.none(),
        botToken: Redacted.make("123456:TEST-bot-token"),
        botUsername: "resale_test_bot",
        webhookSecret: Redacted.make("test-webhook-secret"),
        webhookHeaderSecret: Redacted.make("test-webhook-header-secret"),
        telegramApiUrl: "http://127.0.0.1:9",
        publicUrl: "http://127.0.0.1",
        sandbox: true,
        explorerUrl: null,
        cookieSecret: Redacted.make("test-cookie-secret"),
        paymentCard: "8600 0000 0000 0000",
        logRequests: false,
        loginMaxAgeSeconds: 600,
        trustedProxies: [],
        webhooksAllowLoopback: false,
        accountCaps: DEFAULT_ACCOUNT_CAPS,
        pushAllowedHosts: DEFAULT_PUSH_HOSTS,
        pgPoolMax: 10,
        vapidPublicKey: Option.none(),
        ...overrides
      })
    )
}
