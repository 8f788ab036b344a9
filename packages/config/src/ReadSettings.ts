/**
 * Reads every setting of `Catalogue.ts` at once, decides the mode ONCE, and checks what production
 * needs for the entry's role. Every problem is collected, so one start lists all of them.
 */
import { Effect, Option, Redacted } from "effect"
import { isIP } from "node:net"
import type { AppSettings, Role } from "./AppSettings.ts"
import { assembleSettings } from "./AssembleSettings.ts"
import { ConfigProblems } from "./ConfigProblems.ts"
import { checkProduction, decideMode } from "./ProductionChecks.ts"
import { readFragment, readTelegramAccounts, toncenterOf } from "./ReadOutsideWorld.ts"
import { makeReader, readCatalogue, shown } from "./SettingReader.ts"

/** The settings of `role` from the environment, or every problem found. */
export const readSettings = (role: Role): Effect.Effect<AppSettings, ConfigProblems> =>
  Effect.gen(function* () {
    const reader = makeReader()
    const { problems } = reader
    const values = yield* readCatalogue(reader)
    const { edges, push, secrets } = values

    // THE mode decision.
    const { sandbox, modeReason, modeText } = yield* decideMode(values.mode)
    yield* checkProduction(problems, role, sandbox, values)
    const toncenter = toncenterOf(sandbox, values.world)
    const fragment = yield* readFragment(reader, sandbox, values.world)
    const telegramAccounts = yield* readTelegramAccounts(reader, sandbox, values.telegram)

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

    return assembleSettings({
      role,
      sandbox,
      modeReason,
      values,
      secretTexts: reader.secretTexts,
      toncenter,
      fragment,
      telegramAccounts,
      trustedProxies
    })
  })
