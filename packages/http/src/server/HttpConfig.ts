import { Config, Context, Effect, Layer, Option, Redacted } from "effect"
import { createHash, randomBytes } from "node:crypto"

/** Settings of the HTTP server, read and validated once at start. */
export interface HttpSettings {
  readonly port: number
  readonly dataDir: string
  readonly databaseUrl: Option.Option<Redacted.Redacted<string>>
  readonly adminToken: Redacted.Redacted<string>
  /** True when ADMIN_TOKEN was not set and a fresh one was generated (it is then printed). */
  readonly adminTokenGenerated: boolean
  readonly botToken: Redacted.Redacted<string>
  readonly botUsername: string | null
  /** Path secret of the bot webhook (`/v2/bot/webhook/<secret>`) and its secret-token header. */
  readonly webhookSecret: Redacted.Redacted<string>
  readonly telegramApiUrl: string
  readonly publicUrl: string
  readonly sandbox: boolean
  /** Key of the session cookie signatures. */
  readonly cookieSecret: Redacted.Redacted<string>
  /** Card number shown to users paying a top-up. */
  readonly paymentCard: string | null
  /** One log line per request (`LOG_REQUESTS`, on by default). */
  readonly logRequests: boolean
}

export class HttpConfig extends Context.Service<HttpConfig, HttpSettings>()("http/server/HttpConfig") {
  /** From the environment; see the README for every variable. */
  static readonly layer = Layer.effect(
    HttpConfig,
    Effect.gen(function*() {
      const port = yield* Config.Port("PORT").pipe(Config.withDefault(8000))
      const dataDir = yield* Config.String("DATA_DIR").pipe(Config.withDefault(".data"))
      // An exported but empty DATABASE_URL means "not set", as the store and the CLI read it.
      const databaseUrl = Option.filter(
        yield* Config.Redacted("DATABASE_URL").pipe(Config.option),
        (url) => Redacted.value(url).trim() !== ""
      )
      const adminTokenSet = yield* Config.Redacted("ADMIN_TOKEN").pipe(Config.option)
      const botTokenSet = yield* Config.Redacted("TELEGRAM_BOT_TOKEN").pipe(Config.option)
      const sandboxSetting = yield* Config.Boolean("SANDBOX").pipe(Config.option)
      const publicUrl = yield* Config.String("PUBLIC_URL").pipe(Config.withDefault(`http://127.0.0.1:${port}`))
      const botUsername = yield* Config.String("TELEGRAM_BOT_USERNAME").pipe(Config.option)
      const webhookSecret = yield* Config.Redacted("TELEGRAM_WEBHOOK_SECRET").pipe(Config.option)
      const telegramApiUrl = yield* Config.String("TELEGRAM_API_URL").pipe(Config.withDefault("https://api.telegram.org"))
      const cookieSecret = yield* Config.Redacted("SESSION_SECRET").pipe(Config.option)
      const paymentCard = yield* Config.String("PAYMENT_CARD").pipe(Config.option)
      const logRequests = yield* Config.Boolean("LOG_REQUESTS").pipe(Config.withDefault(true))
      // Sandbox unless production settings are given.
      const sandbox = Option.getOrElse(sandboxSetting, () => Option.isNone(botTokenSet) || Option.isNone(databaseUrl))
      const adminToken = Option.getOrElse(adminTokenSet, () => Redacted.make(randomBytes(24).toString("base64url")))
      const botToken = Option.getOrElse(botTokenSet, () => Redacted.make("sandbox:bot-token"))
      const derive = (label: string) =>
        Redacted.make(
          createHash("sha256").update(`${label}\n${Redacted.value(botToken)}\n${Redacted.value(adminToken)}`).digest("hex")
        )
      return HttpConfig.of({
        port,
        dataDir,
        databaseUrl,
        adminToken,
        adminTokenGenerated: Option.isNone(adminTokenSet),
        botToken,
        botUsername: Option.getOrNull(botUsername),
        webhookSecret: Option.getOrElse(webhookSecret, () => Redacted.make(Redacted.value(derive("webhook")).slice(0, 32))),
        telegramApiUrl,
        publicUrl: publicUrl.replace(/\/+$/, ""),
        sandbox,
        cookieSecret: Option.getOrElse(cookieSecret, () => derive("cookie")),
        paymentCard: Option.getOrElse(Option.map(paymentCard, (c) => c as string | null), () => sandbox ? "8600 0000 0000 0000" : null),
        logRequests
      })
    })
  )

  /** Fixed settings for tests. */
  static readonly layerTest = (overrides: Partial<HttpSettings> = {}) =>
    Layer.succeed(HttpConfig)(HttpConfig.of({
      port: 0,
      dataDir: ".data/test",
      databaseUrl: Option.none(),
      adminToken: Redacted.make("test-admin-token"),
      adminTokenGenerated: false,
      botToken: Redacted.make("123456:TEST-bot-token"),
      botUsername: "resale_test_bot",
      webhookSecret: Redacted.make("test-webhook-secret"),
      telegramApiUrl: "http://127.0.0.1:9",
      publicUrl: "http://127.0.0.1",
      sandbox: true,
      cookieSecret: Redacted.make("test-cookie-secret"),
      paymentCard: "8600 0000 0000 0000",
      logRequests: false,
      ...overrides
    }))
}
