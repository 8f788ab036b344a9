import { EmbeddedPostgres } from "@resale/store/EmbeddedPostgres.ts"
import { Migrations } from "@resale/store/Migrations.ts"
import { PgConnection } from "@resale/store/PgConnection.ts"
import { PgStore } from "@resale/store/PgStore.ts"
import { Layer, Option, Redacted } from "effect"
import type { HttpSettings } from "./HttpConfig.ts"

/**
 * The storage ports on PostgreSQL: `DATABASE_URL` when set, otherwise the embedded PGlite kept
 * under `DATA_DIR/pg`. Migrations run at start; the connection stays visible for `/healthz`.
 */
export const storageLayer = (settings: HttpSettings) => {
  const connection = Option.match(settings.databaseUrl, {
    onNone: () => EmbeddedPostgres.layer(EmbeddedPostgres.dataDirOf(settings.dataDir)),
    onSome: (url) => PgConnection.layerFromUrl(Redacted.value(url), 10)
  })
  return PgStore.layer.pipe(Layer.provideMerge(Migrations.layer), Layer.provideMerge(connection))
}
