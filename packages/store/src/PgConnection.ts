import { PgClient } from "@effect/sql-pg"
import { Config, Layer, Redacted } from "effect"
import type { ConfigError } from "effect/Config"
import type { SqlClient } from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import type { Duplex } from "node:stream"

// Timestamps are compared with now() in SQL; pin the session to UTC so text renderings agree everywhere.
const startupParameters = { timezone: "UTC" }

/** A pooled connection to a PostgreSQL server given by URL. */
const layerFromUrl = (
  url: string | Redacted.Redacted<string>,
  maxConnections = 10
): Layer.Layer<PgClient.PgClient | SqlClient, SqlError> =>
  PgClient.layer({
    url: Redacted.isRedacted(url) ? url : Redacted.make(url),
    maxConnections,
    minConnections: 1,
    idleTimeout: "30 seconds",
    startupParameters
  })

/** One connection to the embedded database of another process, over its Unix socket (see `EmbeddedPostgres`). */
const layerFromSocket = (path: string): Layer.Layer<PgClient.PgClient | SqlClient, SqlError> =>
  PgClient.layer({
    path,
    username: "postgres",
    database: "postgres",
    maxConnections: 1,
    minConnections: 1,
    idleTimeout: "30 seconds",
    startupParameters
  })

/**
 * One connection to an embedded database served in this very process (`PgliteWire.connect`): no
 * socket, so nothing outside the process can reach it.
 */
const layerFromStream = (open: () => Duplex): Layer.Layer<PgClient.PgClient | SqlClient, SqlError> =>
  PgClient.layer({
    stream: open,
    username: "postgres",
    database: "postgres",
    maxConnections: 1,
    minConnections: 1,
    idleTimeout: "30 seconds",
    startupParameters
  })

/** `DATABASE_URL` (required) and `PG_POOL_MAX` (default 10) from the environment. */
const layerConfig: Layer.Layer<PgClient.PgClient | SqlClient, SqlError | ConfigError> = PgClient.layerConfig({
  url: Config.Redacted("DATABASE_URL"),
  maxConnections: Config.Int("PG_POOL_MAX").pipe(Config.withDefault(10)),
  minConnections: Config.succeed(1),
  idleTimeout: Config.succeed("30 seconds"),
  startupParameters: Config.succeed(startupParameters)
})

export const PgConnection = { layerFromUrl, layerFromSocket, layerFromStream, layerConfig } as const
