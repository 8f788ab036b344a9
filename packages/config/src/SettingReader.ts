/**
 * Reads the catalogue's settings from the environment: a malformed value is collected as a problem (its
 * default stands in, so reading goes on) and the text of every secret read is kept for the log scrubber.
 */
import { Config, Effect, Option, Result } from "effect"
import { Direct, Limits } from "./catalogue/LimitSettings.ts"
import { Edges, Mode, Push, Secrets, Storage, Webhooks } from "./catalogue/ServerSettings.ts"
import { Worker } from "./catalogue/WorkerSettings.ts"
import { Telegram, World } from "./catalogue/WorldSettings.ts"
import type { Setting } from "./Setting.ts"

export type Values<G> = { readonly [K in keyof G]: G[K] extends Setting<infer A> ? A : never }

/** A variable's text; unset and blank are the same ("VAR= npm start" means unset). */
export const raw = (name: string): Effect.Effect<Option.Option<string>> =>
  Effect.gen(function* () {
    const text = yield* Config.option(Config.String(name))
    return Option.filter(text, (t) => t.trim() !== "")
  }).pipe(Effect.orElseSucceed(() => Option.none<string>()))

export const shown = (text: string) => (text.length > 40 ? `${text.slice(0, 40)}...` : text)

export const makeReader = () => {
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

export type SettingReader = ReturnType<typeof makeReader>

/** Every group of the catalogue, read. */
export interface CatalogueValues {
  readonly mode: Values<typeof Mode>
  readonly storage: Values<typeof Storage>
  readonly secrets: Values<typeof Secrets>
  readonly telegram: Values<typeof Telegram>
  readonly world: Values<typeof World>
  readonly direct: Values<typeof Direct>
  readonly edges: Values<typeof Edges>
  readonly worker: Values<typeof Worker>
  readonly push: Values<typeof Push>
  readonly webhooks: Values<typeof Webhooks>
  readonly limits: Values<typeof Limits>
}

/** Every group in the order its problems are reported. */
export const readCatalogue = (reader: SettingReader): Effect.Effect<CatalogueValues> =>
  Effect.gen(function* () {
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
    return { mode, storage, secrets, telegram, world, direct, edges, worker, push, webhooks, limits }
  })
