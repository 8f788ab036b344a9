import { ConfigProvider, Context, Effect, Layer } from "effect"
import type { AppSettings, Role } from "./AppSettings.ts"
import { ConfigProblems } from "./ConfigProblems.ts"
import { readSettings } from "./ReadSettings.ts"

/** The one configuration of this process (mode included), read once by the entry. */
export class AppConfig extends Context.Service<AppConfig, AppSettings>()("config/AppConfig") {
  /** From the environment for `role`; fails with every problem at once. */
  static readonly layer = (role: Role): Layer.Layer<AppConfig, ConfigProblems> =>
    Layer.effect(AppConfig, readSettings(role))
}

/**
 * For entries: prints a `ConfigProblems` report on stderr (one line per problem, no stack) and lets
 * the failure end the process with exit code 1; any other failure passes untouched.
 */
export const reportConfigProblems = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.tapError(self, (error) =>
    error instanceof ConfigProblems ? Effect.sync(() => process.stderr.write(`${error.report}\n`)) : Effect.void
  )

/**
 * The environment as it is now, for what is read under it: effect's default provider copies it once per
 * process, and the CLI runs many commands in one process (its tests do).
 */
export const environmentNow = (): Layer.Layer<never> => ConfigProvider.layer(ConfigProvider.fromEnv())
