import { ApiKeyRotation } from "@resale/core/accounts/ApiKeyRotation.ts"
import { CoreServices } from "@resale/core/CoreServices.ts"
import { Webhooks } from "@resale/core/webhooks/Webhooks.ts"
import { DirectPurchaseHistory } from "@resale/core/direct/DirectPurchaseHistory.ts"
import { EmbeddedPostgres } from "@resale/store/EmbeddedPostgres.ts"
import { PgConnection } from "@resale/store/PgConnection.ts"
import { PgStore } from "@resale/store/PgStore.ts"
import { type ConfigProblems, readSettings } from "@resale/config"
import { Effect, Layer, Option, type Redacted } from "effect"

/** Where the data lives, read exactly as the server reads it: `DATABASE_URL`, else the embedded `DATA_DIR`. */
export interface StoreSettings {
  readonly databaseUrl: Option.Option<Redacted.Redacted<string>>
  readonly dataDir: string
}

export const storeSettings: Effect.Effect<StoreSettings, ConfigProblems> = Effect.map(readSettings("cli"), (app) => ({
  databaseUrl: app.databaseUrl,
  dataDir: app.dataDir
}))

/** A small pool: one operator command at a time. */
const CLI_POOL = 4

/**
 * The PostgreSQL connection: the server at `DATABASE_URL`, or the embedded PGlite under `DATA_DIR/pg`:
 * through the Unix socket of the running `npm start` (or another command) that has it open, or opened
 * by this command when no process has (then other commands reach it through this one's socket).
 */
export const CliConnection = Layer.unwrap(
  Effect.gen(function* () {
    const settings = yield* storeSettings
    if (Option.isSome(settings.databaseUrl)) return PgConnection.layerFromUrl(settings.databaseUrl.value, CLI_POOL)
    return EmbeddedPostgres.layerShared(EmbeddedPostgres.dataDirOf(settings.dataDir))
  })
)

/** Every storage port over that connection, with the connection still visible (for `db` commands). */
export const CliStore = PgStore.layer.pipe(Layer.provideMerge(CliConnection))

/** The core use-case services, exactly as the web panel gets them, and the wallet payments' history, over the store. */
export const CliCore = ApiKeyRotation.layer.pipe(
  Layer.provide(Webhooks.layer),
  Layer.provideMerge(Layer.mergeAll(CoreServices, DirectPurchaseHistory.layer)),
  Layer.provideMerge(CliStore)
)
