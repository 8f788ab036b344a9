/**
 * The outside world's settings as the adapters take them: toncenter and Fragment (production only, the
 * sandbox world stands in for them) and the gift sender accounts over MTProto.
 */
import { Effect, Option } from "effect"
import type { AppSettings, FragmentSettings, ToncenterSettings } from "./AppSettings.ts"
import { FRAGMENT_ORIGIN, TONCENTER_MAINNET } from "./catalogue/WorldSettings.ts"
import type { CatalogueValues, SettingReader } from "./SettingReader.ts"
import * as S from "./Setting.ts"

const FRAGMENT_COOKIE_NAMES = ["stel_ssid", "stel_dt", "stel_token", "stel_ton_token"]

type World = CatalogueValues["world"]

export const toncenterOf = (sandbox: boolean, world: World): Option.Option<ToncenterSettings> =>
  sandbox
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

/** FRAGMENT_COOKIES with every session FRAGMENT_SESSIONS names (each read, so its problems are reported). */
export const readFragment = (
  reader: SettingReader,
  sandbox: boolean,
  world: World
): Effect.Effect<Option.Option<FragmentSettings>> =>
  Effect.gen(function* () {
    const { problems } = reader
    const moreSessions: Array<FragmentSettings["moreSessions"][number]> = []
    for (const name of Option.isSome(world.FRAGMENT_COOKIES) ? world.FRAGMENT_SESSIONS : []) {
      const variable = `FRAGMENT_COOKIES_${name.toUpperCase()}`
      const cookies = yield* reader.read(S.cookieHeader(variable, FRAGMENT_COOKIE_NAMES, "a Fragment session"))
      if (Option.isSome(cookies)) moreSessions.push({ label: name, cookies: cookies.value })
      else if (!problems.some((p) => p.startsWith(`${variable}:`)))
        problems.push(`${variable}: required by FRAGMENT_SESSIONS (session "${name}")`)
    }
    return Option.map(sandbox ? Option.none() : world.FRAGMENT_COOKIES, (cookies) => ({
      baseUrl: Option.getOrElse(world.FRAGMENT_URL, () => FRAGMENT_ORIGIN),
      cookies,
      moreSessions,
      proxy: world.FRAGMENT_PROXY,
      timeout: world.FRAGMENT_TIMEOUT,
      sessionHold: world.FRAGMENT_SESSION_HOLD,
      sessionWait: world.FRAGMENT_SESSION_WAIT
    }))
  })

export const readTelegramAccounts = (
  reader: SettingReader,
  sandbox: boolean,
  telegram: CatalogueValues["telegram"]
): Effect.Effect<AppSettings["telegramAccounts"]> =>
  Effect.gen(function* () {
    const { problems } = reader
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
    return telegramAccounts
  })
