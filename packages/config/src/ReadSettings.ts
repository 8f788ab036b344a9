/**
 * Reads every setting of `Catalogue.ts` at once, decides the mode ONCE, and checks what production
 * needs for the entry's role. Every problem is collected, so one start lists all of them.
 */
import { Config, Effect, Option, Redacted, Result } from "effect"
import { createHmac, randomBytes } from "node:crypto"
import { isIP } from "node:net"
import type { AppSettings, FragmentSettings, Role } from "./AppSettings.ts"
import { Direct, Limits } from "./catalogue/LimitSettings.ts"
import { Edges, Mode, Push, Secrets, Storage, Webhooks } from "./catalogue/ServerSettings.ts"
import { Worker } from "./catalogue/WorkerSettings.ts"
import { FRAGMENT_ORIGIN, Telegram, TONCENTER_MAINNET, World } from "./catalogue/WorldSettings.ts"
import { ConfigProblems } from "./ConfigProblems.ts"
import type { Setting } from "./Setting.ts"
import * as S from "./Setting.ts"

const FRAGMENT_COOKIE_NAMES = ["stel_ssid", "stel_dt", "stel_token", "stel_ton_token"]

/** Outside sandbox, the operator token and the session key must be at least this long. */
export const MIN_ADMIN_TOKEN = 24
export const MIN_SESSION_SECRET = 32

/** Settings that reach the real chain or the real Fragment: never in sandbox mode. */
const OUTSIDE_WORLD = ["TONCENTER_URL", "FRAGMENT_COOKIES"] as const

/** Settings whose presence means "this is production" when SANDBOX is unset. */
const PRODUCTION_HINTS = ["TELEGRAM_BOT_TOKEN", "HOT_WALLET_MNEMONIC", "FRAGMENT_COOKIES"] as const

type Values<G> = { readonly [K in keyof G]: G[K] extends Setting<infer A> ? A : never }

/** A variable's text; unset and blank are the same ("VAR= npm start" means unset). */
const raw = (name: string): Effect.Effect<Option.Option<string>> =>
  Effect.gen(function* () {
    const text = yield* Config.option(Config.String(name))
    return Option.filter(text, (t) => t.trim() !== "")
  }).pipe(Effect.orElseSucceed(() => Option.none<string>()))

const shown = (text: string) => (text.length > 40 ? `${text.slice(0, 40)}...` : text)

const makeReader = () => {
  const problems: Array<string> = []
  // The texts of every secret setting read (and their parts): the catalogue's flag decides, no list.
  const secretTexts: Array<string> = []
  const read = <A>(setting: Setting<A>): Effect.Effect<A> =>
    Effect.map(raw(setting.name), (text) => {
      if (Option.isNone(text)) return setting.fallback
      if (setting.secret) secretTexts.push(...(setting.secretParts?.(text.value) ?? [text.value]))
      const decoded = setting.decode(text.value)
      if (Result.isSuccess(decoded)) return decoded.success
      problems.push(`${setting.name}: ${decoded.failure}${setting.secret ? "" : `, got "${shown(text.value)}"`}`)
      return setting.fallback
    })
  const group = <G extends Record<string, Setting<any>>>(settings: G): Effect.Effect<Values<G>> =>
    Effect.map(
      Effect.forEach(Object.entries(settings), ([key, setting]) =>
        Effect.map(read(setting), (value) => [key, value] as const)
      ),
      (entries) => Object.fromEntries(entries) as Values<G>
    )
  return { problems, secretTexts, read, group }
}

const derive = (key: Redacted.Redacted<string>, label: string) =>
  Redacted.make(createHmac("sha256", Redacted.value(key)).update(label).digest("hex"))

/** A webhook secret: 32 hex characters of the key's HMAC of `label`. */
const derived = (key: Redacted.Redacted<string>, label: string) =>
  Redacted.make(Redacted.value(derive(key, label)).slice(0, 32))

/** The settings of `role` from the environment, or every problem found. */
export const readSettings = (role: Role): Effect.Effect<AppSettings, ConfigProblems> =>
  Effect.gen(function* () {
    const reader = makeReader()
    const { problems } = reader
    const mode = yield* reader.group(Mode)
    const storage = yield* reader.group(Storage)
    const secrets = yield* reader.group(Secrets)
    const telegram = yield* reader.group(Telegram)
    const world = yield* reader.group(World)
    const direct = yield* reader.group(Direct)
    const edges = yield* reader.group(Edges)
    const worker = yield* reader.group(Worker)
    const push = yield* reader.group(Push)
    const webhooks = yield* reader.group(Webhooks)
    // The core's AccountCaps and PushPolicy; the roots provide them from here.
    const limits = yield* reader.group(Limits)
    for (const [name, value] of Object.entries(limits)) {
      if (typeof value === "number" && value > 1000)
        problems.push(`${name}: expected a whole number from 1 to 1000, got ${value}`)
    }

    // THE mode decision.
    const hints = []
    for (const name of PRODUCTION_HINTS) if (Option.isSome(yield* raw(name))) hints.push(name)
    const sandbox = Option.getOrElse(mode.SANDBOX, () => hints.length === 0)
    const modeReason = Option.isSome(mode.SANDBOX)
      ? `SANDBOX=${mode.SANDBOX.value}`
      : hints.length === 0
        ? "SANDBOX unset and no production setting given"
        : `SANDBOX unset and ${hints.join(", ")} given`
    const modeText = `${sandbox ? "sandbox" : "production"} mode: ${modeReason}`
    // A variable already reported as malformed is not reported again as missing.
    const required = (name: string, what: string) => {
      if (!problems.some((p) => p.startsWith(`${name}:`)))
        problems.push(`${name}: required outside sandbox mode (${what})`)
    }

    // Secrets: outside sandbox, from the environment only, never from a constant.
    const server = role === "server"
    const runsWorker = role === "worker" || (server && mode.WORKER)
    if (!sandbox && server) {
      if (Option.isNone(secrets.TELEGRAM_BOT_TOKEN)) required("TELEGRAM_BOT_TOKEN", "the bot's token from @BotFather")
      if (Option.isNone(secrets.SESSION_SECRET))
        required("SESSION_SECRET", `at least ${MIN_SESSION_SECRET} random characters`)
      else if (Redacted.value(secrets.SESSION_SECRET.value).length < MIN_SESSION_SECRET) {
        problems.push(
          `SESSION_SECRET: too short: at least ${MIN_SESSION_SECRET} random characters are required outside sandbox mode`
        )
      }
      if (Option.isNone(secrets.ADMIN_TOKEN)) required("ADMIN_TOKEN", `at least ${MIN_ADMIN_TOKEN} random characters`)
      else if (Redacted.value(secrets.ADMIN_TOKEN.value).length < MIN_ADMIN_TOKEN) {
        problems.push(`ADMIN_TOKEN: too weak: at least ${MIN_ADMIN_TOKEN} characters are required outside sandbox mode`)
      }
    }
    if (!sandbox && webhooks.WEBHOOKS_ALLOW_LOOPBACK) {
      problems.push("WEBHOOKS_ALLOW_LOOPBACK: sandbox only (it lets webhooks target this machine)")
    }
    if (!sandbox && runsWorker && Option.isNone(secrets.HOT_WALLET_MNEMONIC)) {
      required("HOT_WALLET_MNEMONIC", "the 24 words of the wallet that pays Fragment")
    }
    if (role === "worker" && Option.isNone(storage.DATABASE_URL)) {
      problems.push("DATABASE_URL: required for `npm run worker` (the PostgreSQL the server uses)")
    }

    // The outside world: production adapters outside sandbox, the shared sandbox world in it. A real chain or
    // Fragment never runs with sandbox features on (open sign-in, faucet, public hot wallet phrase, banner).
    const outside = []
    for (const name of OUTSIDE_WORLD) if (Option.isSome(yield* raw(name))) outside.push(name)
    if (sandbox && outside.length > 0) {
      problems.push(
        `${outside.join(", ")}: refused in sandbox mode (sandbox sign-in, faucet and the public hot wallet phrase ` +
          `would face a real chain or Fragment): set SANDBOX=false with production's secrets, or unset ` +
          `${outside.join(" and ")} to use the sandbox world`
      )
    }
    if (!sandbox && role !== "cli" && Option.isNone(world.FRAGMENT_COOKIES))
      required("FRAGMENT_COOKIES", "a signed-in Fragment session")
    const toncenter = sandbox
      ? Option.none()
      : Option.some({
          endpoint: Option.getOrElse(world.TONCENTER_URL, () => TONCENTER_MAINNET),
          apiKey: world.TONCENTER_API_KEY,
          network: Option.getOrElse(world.TON_NETWORK, () =>
            Option.getOrElse(world.TONCENTER_URL, () => "").includes("testnet")
              ? ("testnet" as const)
              : ("mainnet" as const)
          ),
          timeout: world.TONCENTER_TIMEOUT
        })
    const moreSessions: Array<FragmentSettings["moreSessions"][number]> = []
    for (const name of Option.isSome(world.FRAGMENT_COOKIES) ? world.FRAGMENT_SESSIONS : []) {
      const variable = `FRAGMENT_COOKIES_${name.toUpperCase()}`
      const cookies = yield* reader.read(S.cookieHeader(variable, FRAGMENT_COOKIE_NAMES, "a Fragment session"))
      if (Option.isSome(cookies)) moreSessions.push({ label: name, cookies: cookies.value })
      else if (!problems.some((p) => p.startsWith(`${variable}:`)))
        problems.push(`${variable}: required by FRAGMENT_SESSIONS (session "${name}")`)
    }
    const fragment = Option.map(sandbox ? Option.none() : world.FRAGMENT_COOKIES, (cookies) => ({
      baseUrl: Option.getOrElse(world.FRAGMENT_URL, () => FRAGMENT_ORIGIN),
      cookies,
      moreSessions,
      proxy: world.FRAGMENT_PROXY,
      timeout: world.FRAGMENT_TIMEOUT,
      sessionHold: world.FRAGMENT_SESSION_HOLD,
      sessionWait: world.FRAGMENT_SESSION_WAIT
    }))

    // Gift sender accounts over MTProto: every named account needs its session (a whole Telegram
    // account: read, and so kept out of logs, in every mode).
    const senderSessions = []
    for (const name of telegram.GIFT_SENDERS) {
      const variable = `GIFT_SENDER_${name.toUpperCase()}_SESSION`
      senderSessions.push({ name, variable, session: yield* reader.read(S.secret(variable, "an mtcute session")) })
    }
    let telegramAccounts: AppSettings["telegramAccounts"] = Option.none()
    if (!sandbox && Option.isSome(telegram.TELEGRAM_API_ID)) {
      if (Option.isNone(telegram.TELEGRAM_API_HASH))
        problems.push("TELEGRAM_API_HASH: required with TELEGRAM_API_ID (the MTProto app hash)")
      const sessions = []
      for (const { name, session, variable } of senderSessions) {
        if (Option.isNone(session))
          problems.push(`${variable}: required with TELEGRAM_API_ID (an mtcute session string of account "${name}")`)
        else sessions.push({ name, session: session.value })
      }
      if (Option.isSome(telegram.TELEGRAM_API_HASH)) {
        telegramAccounts = Option.some({
          apiId: telegram.TELEGRAM_API_ID.value,
          apiHash: telegram.TELEGRAM_API_HASH.value,
          sessions
        })
      }
    }

    if (Option.isSome(push.VAPID_PUBLIC_KEY) !== Option.isSome(push.VAPID_PRIVATE_KEY)) {
      problems.push("VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY: set both or neither")
    }
    const trustedProxies = edges.TRUSTED_PROXIES.split(",")
      .map((s) => s.trim())
      .filter((s) => s !== "")
    for (const entry of trustedProxies) {
      const [address = "", bits] = entry.split("/")
      if (isIP(address) === 0 || (bits !== undefined && !/^\d{1,3}$/.test(bits))) {
        problems.push(`TRUSTED_PROXIES: expected comma-separated addresses or CIDR ranges, got "${shown(entry)}"`)
      }
    }
    const headerSecret = secrets.TELEGRAM_WEBHOOK_HEADER_SECRET
    if (
      Option.isSome(headerSecret) &&
      Option.isSome(secrets.TELEGRAM_WEBHOOK_SECRET) &&
      Redacted.value(headerSecret.value) === Redacted.value(secrets.TELEGRAM_WEBHOOK_SECRET.value)
    ) {
      problems.push(
        "TELEGRAM_WEBHOOK_HEADER_SECRET: must differ from TELEGRAM_WEBHOOK_SECRET (the path secret is in every URL)"
      )
    }
    if (problems.length > 0) return yield* new ConfigProblems({ mode: modeText, problems })

    // Sandbox only: a generated operator token and keys derived from it (a restart signs everybody out).
    const adminToken = Option.getOrElse(secrets.ADMIN_TOKEN, () => Redacted.make(randomBytes(24).toString("base64url")))
    const sessionSecret = Option.getOrElse(secrets.SESSION_SECRET, () => derive(adminToken, "sandbox session"))
    // Two labels, two keys: the path secret (written in every URL) opens nothing the header checks.
    const webhookSecret = Option.getOrElse(secrets.TELEGRAM_WEBHOOK_SECRET, () => derived(sessionSecret, "webhook"))
    const webhookHeaderSecret = Option.getOrElse(headerSecret, () => derived(sessionSecret, "webhook header"))
    // The generated admin token is left out: the sandbox banner prints it on purpose.
    const logSecrets = [
      ...reader.secretTexts,
      ...[sessionSecret, webhookSecret, webhookHeaderSecret].map((secret) => Redacted.value(secret))
    ]
    return {
      role,
      sandbox,
      modeReason,
      host: mode.HOST.trim(),
      port: mode.PORT,
      publicUrl: Option.getOrElse(mode.PUBLIC_URL, () => `http://127.0.0.1:${mode.PORT}`),
      dataDir: mode.DATA_DIR,
      inProcessWorker: mode.WORKER,
      logRequests: mode.LOG_REQUESTS,
      metricsToken: mode.METRICS_TOKEN,
      workerProbePort: mode.WORKER_PROBE_PORT,
      databaseUrl: storage.DATABASE_URL,
      pgPoolMax: storage.PG_POOL_MAX,
      adminToken,
      adminTokenGenerated: Option.isNone(secrets.ADMIN_TOKEN),
      sessionSecret,
      webhookSecret,
      webhookHeaderSecret,
      secretTexts: () => logSecrets,
      botToken: secrets.TELEGRAM_BOT_TOKEN,
      botUsername: telegram.TELEGRAM_BOT_USERNAME,
      telegramApiUrl: telegram.TELEGRAM_API_URL,
      operatorChatIds: telegram.OPERATOR_CHAT_IDS,
      giftSenders: telegram.GIFT_SENDERS,
      telegramAccounts,
      paymentCard: Option.getOrElse(telegram.PAYMENT_CARD, () => (sandbox ? "8600 0000 0000 0000" : null)),
      hotWalletMnemonic: secrets.HOT_WALLET_MNEMONIC,
      hotWalletVersion: worker.HOT_WALLET_VERSION,
      sandboxBlockInterval: world.SANDBOX_BLOCK_INTERVAL,
      sandboxFragmentSessions: world.SANDBOX_FRAGMENT_SESSIONS,
      sandboxMagic: { slowSearch: world.SANDBOX_SLOW_SEARCH, lateDelivery: world.SANDBOX_LATE_DELIVERY },
      toncenter,
      fragmentSessions: { hold: world.FRAGMENT_SESSION_HOLD, wait: world.FRAGMENT_SESSION_WAIT },
      fragment,
      direct: {
        ratePerMinute: direct.DIRECT_RATE_LIMIT,
        rateBurst: direct.DIRECT_RATE_BURST,
        rateShared: Option.getOrElse(direct.DIRECT_RATE_SHARED, () => Option.isSome(storage.DATABASE_URL)),
        derivations: direct.DIRECT_DERIVATIONS,
        derivationQueue: direct.DIRECT_DERIVATION_QUEUE,
        derivationWait: direct.DIRECT_DERIVATION_WAIT,
        answerWithin: direct.DIRECT_ANSWER_TIMEOUT,
        replayWithin: direct.DIRECT_REPLAY_WINDOW,
        trustProxy: direct.DIRECT_TRUST_PROXY,
        maxBodyBytes: direct.DIRECT_MAX_BODY,
        confirmWithin: direct.DIRECT_CONFIRM_TIMEOUT,
        deliveryWithin: direct.DIRECT_DELIVERY_TIMEOUT,
        pollEvery: direct.DIRECT_POLL_INTERVAL
      },
      loginMaxAge: edges.LOGIN_MAX_AGE,
      trustedProxies,
      worker: {
        concurrency: worker.WORKER_CONCURRENCY,
        hotWalletBatch: worker.HOT_WALLET_BATCH,
        hotWalletParallel: worker.HOT_WALLET_PARALLEL,
        hotWalletBatchWait: worker.HOT_WALLET_BATCH_WAIT,
        quoteConcurrency: worker.FRAGMENT_QUOTE_CONCURRENCY,
        pollInterval: worker.WORKER_POLL_INTERVAL,
        orderLease: worker.ORDER_LEASE,
        deliveryWait: worker.ORDER_DELIVERY_WAIT,
        confirmWait: worker.PAYMENT_CONFIRM_WAIT,
        chainPollEvery: worker.PAYMENT_POLL_INTERVAL,
        paymentStaleAfter: worker.PAYMENT_STALE_AFTER,
        reconcileDelay: worker.ORDER_RECONCILE_DELAY,
        unknownRetryMax: worker.ORDER_UNKNOWN_RETRY_MAX,
        attentionAfter: worker.ORDER_ATTENTION_AFTER,
        attentionAttempts: worker.ORDER_ATTENTION_ATTEMPTS,
        retryDelay: worker.ORDER_RETRY_DELAY,
        maxAttempts: worker.ORDER_MAX_ATTEMPTS,
        paymentsInterval: worker.WORKER_PAYMENTS_INTERVAL,
        rematchWindow: worker.PAYMENT_REMATCH_WINDOW,
        notifyInterval: worker.WORKER_NOTIFY_INTERVAL,
        notifyBatch: worker.WORKER_NOTIFY_BATCH
      },
      vapid:
        Option.isSome(push.VAPID_PUBLIC_KEY) && Option.isSome(push.VAPID_PRIVATE_KEY)
          ? Option.some({ publicKey: push.VAPID_PUBLIC_KEY.value, privateKey: push.VAPID_PRIVATE_KEY.value })
          : Option.none(),
      vapidSubject: push.VAPID_SUBJECT,
      webhooksAllowLoopback: webhooks.WEBHOOKS_ALLOW_LOOPBACK,
      accountCaps: {
        openCardTopups: limits.CAP_OPEN_TOPUPS,
        openReviews: limits.CAP_OPEN_REVIEWS,
        topupsPerDay: limits.CAP_TOPUPS_PER_DAY,
        cancelsPerDay: limits.CAP_CANCELS_PER_DAY,
        uploadsPerDay: limits.CAP_UPLOADS_PER_DAY,
        ticketsPerDay: limits.CAP_TICKETS_PER_DAY,
        pushSubscriptions: limits.CAP_PUSH_SUBSCRIPTIONS
      },
      pushAllowedHosts: limits.PUSH_ALLOWED_HOSTS.split(",")
        .map((host) => host.trim().toLowerCase())
        .filter((host) => host !== "")
    } satisfies AppSettings
  })
