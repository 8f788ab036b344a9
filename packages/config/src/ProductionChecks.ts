/**
 * THE mode decision, and what production needs for the entry's role: its secrets (from the environment
 * only, never from a constant) and a real chain and Fragment, which sandbox mode refuses.
 */
import { Effect, Option, Redacted } from "effect"
import type { Role } from "./AppSettings.ts"
import { type CatalogueValues, raw } from "./SettingReader.ts"

/** Outside sandbox, the operator token and the session key must be at least this long. */
export const MIN_ADMIN_TOKEN = 24
export const MIN_SESSION_SECRET = 32

/** Settings that reach the real chain or the real Fragment: never in sandbox mode. */
const OUTSIDE_WORLD = ["TONCENTER_URL", "FRAGMENT_COOKIES"] as const

/** Settings whose presence means "this is production" when SANDBOX is unset. */
const PRODUCTION_HINTS = ["TELEGRAM_BOT_TOKEN", "HOT_WALLET_MNEMONIC", "FRAGMENT_COOKIES"] as const

export interface ModeDecision {
  readonly sandbox: boolean
  readonly modeReason: string
  readonly modeText: string
}

/** SANDBOX when set; otherwise sandbox only when no production setting is given. */
export const decideMode = (mode: CatalogueValues["mode"]): Effect.Effect<ModeDecision> =>
  Effect.gen(function* () {
    const hints = []
    for (const name of PRODUCTION_HINTS) if (Option.isSome(yield* raw(name))) hints.push(name)
    const sandbox = Option.getOrElse(mode.SANDBOX, () => hints.length === 0)
    const modeReason = Option.isSome(mode.SANDBOX)
      ? `SANDBOX=${mode.SANDBOX.value}`
      : hints.length === 0
        ? "SANDBOX unset and no production setting given"
        : `SANDBOX unset and ${hints.join(", ")} given`
    const modeText = `${sandbox ? "sandbox" : "production"} mode: ${modeReason}`
    return { sandbox, modeReason, modeText }
  })

/** Adds to `problems` what `role` lacks or may not have in this mode. */
export const checkProduction = (
  problems: Array<string>,
  role: Role,
  sandbox: boolean,
  { mode, secrets, storage, webhooks, world }: CatalogueValues
): Effect.Effect<void> =>
  Effect.gen(function* () {
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
  })
