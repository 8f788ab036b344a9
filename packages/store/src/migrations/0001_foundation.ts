import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/**
 * The first schema: one table per storage port. The database itself refuses what must never happen
 * (negative balances, a cause credited twice, two pending top-ups with one payable amount, a bank
 * message processed twice, states outside their lists), so an adapter bug becomes an error, not a loss.
 * Money is bigint so'm; ids are identities; times are timestamptz.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient

  yield* sql`
    CREATE TABLE users (
      id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      telegram_id   bigint NOT NULL UNIQUE CHECK (telegram_id > 0),
      username      text,
      first_name    text,
      photo_url     text,
      tier          smallint NOT NULL DEFAULT 0 CHECK (tier IN (0, 1, 2)),
      api_key_hash  text UNIQUE CHECK (api_key_hash ~ '^[0-9a-f]{64}$'),
      bot_chat_id   bigint,
      created_at    timestamptz NOT NULL,
      updated_at    timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX users_username_idx ON users (lower(username))`

  // The running balance, updated in the same statement as each ledger insert.
  yield* sql`
    CREATE TABLE accounts (
      user_id      bigint PRIMARY KEY REFERENCES users (id),
      balance_uzs  bigint NOT NULL DEFAULT 0 CHECK (balance_uzs >= 0)
    )`

  yield* sql`
    CREATE TABLE ledger_entries (
      id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      user_id            bigint NOT NULL REFERENCES accounts (user_id),
      amount_uzs         bigint NOT NULL,
      cause              text NOT NULL CHECK (cause IN ('topup', 'order', 'refund', 'tier', 'adjust')),
      cause_id           text NOT NULL CHECK (cause_id <> ''),
      note               text,
      balance_after_uzs  bigint NOT NULL CHECK (balance_after_uzs >= 0),
      created_at         timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT ledger_entries_cause_key UNIQUE (cause, cause_id)
    )`
  yield* sql`CREATE INDEX ledger_entries_user_idx ON ledger_entries (user_id, id DESC)`
  // Insert-only: an entry is never edited or deleted; a correction is a new entry.
  yield* sql`
    CREATE FUNCTION ledger_entries_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'ledger entries are insert-only' USING ERRCODE = 'restrict_violation';
    END $$`
  yield* sql`
    CREATE TRIGGER ledger_entries_immutable BEFORE UPDATE OR DELETE ON ledger_entries
    FOR EACH ROW EXECUTE FUNCTION ledger_entries_immutable()`

  yield* sql`
    CREATE TABLE topups (
      id                    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      user_id               bigint NOT NULL REFERENCES users (id),
      method                text NOT NULL CHECK (method IN ('card', 'receipt')),
      requested_uzs         bigint NOT NULL CHECK (requested_uzs > 0),
      payable_uzs           bigint NOT NULL CHECK (payable_uzs - requested_uzs BETWEEN 0 AND 999),
      credited_uzs          bigint CHECK (credited_uzs >= 0),
      status                text NOT NULL CHECK (status IN ('pending', 'review', 'paid', 'cancelled', 'rejected', 'expired')),
      receipt_key           text,
      receipt_content_type  text,
      receipt_size          integer CHECK (receipt_size >= 0),
      admin_note            text,
      payment_id            bigint,
      confirmed_by          text CHECK (confirmed_by IN ('payment', 'operator', 'admin_api')),
      expires_at            timestamptz,
      created_at            timestamptz NOT NULL,
      updated_at            timestamptz NOT NULL,
      CHECK ((receipt_key IS NULL) = (receipt_content_type IS NULL) AND (receipt_key IS NULL) = (receipt_size IS NULL)),
      CHECK (method <> 'receipt' OR receipt_key IS NOT NULL),
      CHECK (method <> 'card' OR expires_at IS NOT NULL),
      CHECK (status <> 'paid' OR (credited_uzs IS NOT NULL AND confirmed_by IS NOT NULL))
    )`
  // The payable amount identifies a card payment: unique among pending top-ups.
  yield* sql`CREATE UNIQUE INDEX topups_pending_payable_key ON topups (payable_uzs) WHERE status = 'pending'`
  yield* sql`CREATE INDEX topups_user_idx ON topups (user_id, id DESC)`
  yield* sql`CREATE INDEX topups_status_idx ON topups (status, id DESC)`
  yield* sql`CREATE INDEX topups_pending_expiry_idx ON topups (expires_at) WHERE status = 'pending'`

  yield* sql`
    CREATE TABLE incoming_payments (
      id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      amount_uzs   bigint NOT NULL CHECK (amount_uzs > 0),
      card_last4   text CHECK (card_last4 ~ '^[0-9]{4}$'),
      external_id  text UNIQUE CHECK (external_id <> ''),
      status       text NOT NULL CHECK (status IN ('received', 'matched', 'unmatched', 'ambiguous')),
      topup_id     bigint UNIQUE REFERENCES topups (id),
      created_at   timestamptz NOT NULL,
      updated_at   timestamptz NOT NULL,
      CHECK ((status = 'matched') = (topup_id IS NOT NULL))
    )`
  yield* sql`CREATE INDEX incoming_payments_status_idx ON incoming_payments (status, id)`
  yield* sql`ALTER TABLE topups ADD CONSTRAINT topups_payment_fk FOREIGN KEY (payment_id) REFERENCES incoming_payments (id)`

  yield* sql`
    CREATE TABLE orders (
      id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      user_id          bigint NOT NULL REFERENCES users (id),
      recipient        text NOT NULL CHECK (recipient <> ''),
      kind             text NOT NULL CHECK (kind IN ('stars', 'premium', 'gift')),
      item             jsonb NOT NULL CHECK (item ->> 'kind' = kind),
      price_uzs        bigint NOT NULL CHECK (price_uzs >= 0),
      status           text NOT NULL CHECK (status IN ('queued', 'processing', 'completed', 'failed')),
      charge_seq       integer NOT NULL DEFAULT 0 CHECK (charge_seq >= 0),
      attempts         integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
      last_error       text,
      next_attempt_at  timestamptz,
      tx_id            text,
      fragment_ref     text,
      created_at       timestamptz NOT NULL,
      updated_at       timestamptz NOT NULL,
      completed_at     timestamptz
    )`
  yield* sql`CREATE INDEX orders_user_idx ON orders (user_id, id DESC)`
  yield* sql`CREATE INDEX orders_status_idx ON orders (status, id DESC)`
  // What claimNext scans: due queued orders, oldest first.
  yield* sql`CREATE INDEX orders_queue_idx ON orders (id) WHERE status = 'queued'`

  yield* sql`
    CREATE TABLE tickets (
      id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      user_id      bigint NOT NULL REFERENCES users (id),
      subject      text NOT NULL,
      status       text NOT NULL CHECK (status IN ('open', 'closed')),
      last_author  text NOT NULL CHECK (last_author IN ('user', 'operator')),
      created_at   timestamptz NOT NULL,
      updated_at   timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX tickets_user_idx ON tickets (user_id, updated_at DESC)`
  yield* sql`CREATE INDEX tickets_updated_idx ON tickets (updated_at DESC, id DESC)`
  yield* sql`
    CREATE TABLE ticket_messages (
      id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      ticket_id   bigint NOT NULL REFERENCES tickets (id),
      author      text NOT NULL CHECK (author IN ('user', 'operator')),
      body        text NOT NULL,
      created_at  timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX ticket_messages_ticket_idx ON ticket_messages (ticket_id, id)`

  // One current row; no row means the defaults of the code.
  yield* sql`
    CREATE TABLE prices (
      singleton             boolean PRIMARY KEY DEFAULT true CHECK (singleton),
      star_price_uzs        bigint NOT NULL CHECK (star_price_uzs > 0),
      premium_3_month_uzs   bigint NOT NULL CHECK (premium_3_month_uzs > 0),
      premium_6_month_uzs   bigint NOT NULL CHECK (premium_6_month_uzs > 0),
      premium_12_month_uzs  bigint NOT NULL CHECK (premium_12_month_uzs > 0),
      updated_at            timestamptz NOT NULL
    )`

  yield* sql`
    CREATE TABLE idempotency_keys (
      scope         text NOT NULL,
      key           text NOT NULL CHECK (key <> ''),
      request_hash  text NOT NULL,
      status        text NOT NULL CHECK (status IN ('in_progress', 'completed')),
      response      jsonb,
      started_at    timestamptz NOT NULL,
      completed_at  timestamptz,
      PRIMARY KEY (scope, key),
      CHECK ((status = 'completed') = (completed_at IS NOT NULL))
    )`

  yield* sql`
    CREATE TABLE sessions (
      id            text PRIMARY KEY,
      subject_kind  text NOT NULL CHECK (subject_kind IN ('user', 'operator')),
      user_id       bigint REFERENCES users (id) ON DELETE CASCADE,
      created_at    timestamptz NOT NULL,
      expires_at    timestamptz NOT NULL,
      CHECK ((subject_kind = 'user') = (user_id IS NOT NULL))
    )`
  yield* sql`CREATE INDEX sessions_expiry_idx ON sessions (expires_at)`

  yield* sql`
    CREATE TABLE bot_updates (
      update_id  bigint PRIMARY KEY,
      seen_at    timestamptz NOT NULL
    )`

  yield* sql`
    CREATE TABLE push_subscriptions (
      endpoint    text PRIMARY KEY CHECK (endpoint <> ''),
      user_id     bigint NOT NULL REFERENCES users (id),
      p256dh      text NOT NULL,
      auth        text NOT NULL,
      created_at  timestamptz NOT NULL
    )`
  yield* sql`CREATE INDEX push_subscriptions_user_idx ON push_subscriptions (user_id)`

  yield* sql`
    CREATE TABLE outbox_events (
      id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      kind          text NOT NULL CHECK (kind <> ''),
      user_id       bigint REFERENCES users (id),
      payload       jsonb NOT NULL,
      status        text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
      attempts      integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
      last_error    text,
      available_at  timestamptz NOT NULL,
      created_at    timestamptz NOT NULL,
      delivered_at  timestamptz,
      CHECK ((status = 'delivered') = (delivered_at IS NOT NULL))
    )`
  yield* sql`CREATE INDEX outbox_events_due_idx ON outbox_events (available_at, id) WHERE status = 'pending'`

  yield* sql`
    CREATE TABLE info_lookups (
      user_id  bigint NOT NULL REFERENCES users (id),
      day      date NOT NULL,
      count    integer NOT NULL CHECK (count >= 0),
      PRIMARY KEY (user_id, day)
    )`

  yield* sql`
    CREATE TABLE receipts (
      key           text PRIMARY KEY CHECK (key <> ''),
      content_type  text NOT NULL,
      size          integer NOT NULL CHECK (size >= 0),
      bytes         bytea NOT NULL,
      created_at    timestamptz NOT NULL DEFAULT now(),
      CHECK (octet_length(bytes) = size)
    )`
})
