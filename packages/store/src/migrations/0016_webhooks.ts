import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/**
 * Integrators' webhook endpoints and one delivery row per (endpoint, event id): the unique pair makes
 * a repeated fan-out of the same outbox event a no-op, so at-least-once never becomes many times.
 * Deleting an endpoint deletes its deliveries.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient
  yield* sql`
    CREATE TABLE webhook_endpoints (
      id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      user_id     bigint NOT NULL REFERENCES users (id),
      url         text NOT NULL CHECK (url <> ''),
      secret      text NOT NULL CHECK (secret LIKE 'whsec_%'),
      events      text NOT NULL CHECK (events <> ''),
      created_at  timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX webhook_endpoints_user_idx ON webhook_endpoints (user_id)`
  yield* sql`
    CREATE TABLE webhook_deliveries (
      id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      endpoint_id      bigint NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
      event_id         text NOT NULL CHECK (event_id <> ''),
      event_type       text NOT NULL CHECK (event_type <> ''),
      body             text NOT NULL,
      status           text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
      attempts         integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
      last_status_code integer,
      last_error       text,
      next_attempt_at  timestamptz,
      created_at       timestamptz NOT NULL,
      delivered_at     timestamptz,
      UNIQUE (endpoint_id, event_id),
      CHECK ((status = 'pending') = (next_attempt_at IS NOT NULL))
    )`
  yield* sql`CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`
  yield* sql`CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, id DESC)`
})
