import { PgClient } from "@effect/sql-pg"
import { type Layer, Redacted } from "effect"
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

/** The embedded database (PGlite) serves one connection at a time, as its superuser. */
const embedded = {
  username: "postgres",
  database: "postgres",
  maxConnections: 1,
  minConnections: 1,
  idleTimeout: "30 seconds",
  startupParameters
} as const

/** One connection to the embedded database of another process, over its Unix socket (see `EmbeddedPostgres`). */
const layerFromSocket = (path: string): Layer.Layer<PgClient.PgClient | SqlClient, SqlError> =>
  PgClient.layer({ path, ...embedded })

/**
 * One connection to an embedded database served in this very process (`PgliteWire.connect`): no
 * socket, so nothing outside the process can reach it.
 */
const layerFromStream = (open: () => Duplex): Layer.Layer<PgClient.PgClient | SqlClient, SqlError> =>
  PgClient.layer({ stream: open, ...embedded })

export const PgConnection = { layerFromUrl, layerFromSocket, layerFromStream } as const
