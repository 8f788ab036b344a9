import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/**
 * The hot wallet's payments get their own records: a wallet payment of an account order is not a
 * direct purchase. `wallet_batches` holds each signed external message (one or many payments) and
 * `wallet_payments` each order charge's payment (key, `Ref#`, recipient, amount), stored with its
 * batch before anything is sent. At most one batch per wallet is open across every process.
 * The account orders' rows of `direct_purchases` (order ids `hw-...`) move here: finished ones as
 * paid or failed, open ones as `open` without a batch, settled on chain by their `Ref#`.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient
  yield* sql`
    CREATE TABLE wallet_batches (
      id              bigserial PRIMARY KEY,
      network         text NOT NULL CHECK (network IN ('mainnet', 'testnet', 'sandbox')),
      wallet_address  text NOT NULL,
      state           text NOT NULL CHECK (state IN ('signed', 'sent', 'executed', 'expired', 'superseded')),
      seqno           bigint NOT NULL,
      external_hash   text NOT NULL CHECK (external_hash ~ '^[0-9a-f]{64}$'),
      valid_until     bigint NOT NULL,
      prepared        jsonb NOT NULL,
      payments        integer NOT NULL CHECK (payments >= 1),
      tx_hash         text,
      fee_nano        bigint CHECK (fee_nano >= 0),
      created_at      timestamptz NOT NULL,
      updated_at      timestamptz NOT NULL,
      CHECK (state <> 'executed' OR (tx_hash IS NOT NULL AND fee_nano IS NOT NULL))
    )`
  // The seqno allows one message in flight per wallet: one open batch, whichever process signed it.
  yield* sql`CREATE UNIQUE INDEX wallet_batches_open_idx ON wallet_batches (wallet_address) WHERE state IN ('signed', 'sent')`
  yield* sql`
    CREATE TABLE wallet_payments (
      id              bigserial PRIMARY KEY,
      key             text NOT NULL UNIQUE,
      wallet_address  text NOT NULL,
      batch_id        bigint REFERENCES wallet_batches (id),
      position        integer CHECK (position >= 0),
      kind            text NOT NULL CHECK (kind IN ('stars', 'premium')),
      state           text NOT NULL CHECK (state IN ('open', 'paid', 'failed')),
      req_id          text NOT NULL,
      ref             text NOT NULL,
      pay_to          text NOT NULL,
      amount_nano     bigint NOT NULL CHECK (amount_nano > 0),
      valid_until     bigint NOT NULL,
      tx_hash         text,
      error           text,
      created_at      timestamptz NOT NULL,
      updated_at      timestamptz NOT NULL,
      CHECK (state <> 'paid' OR tx_hash IS NOT NULL),
      CHECK ((batch_id IS NULL) = (position IS NULL))
    )`
  yield* sql`CREATE INDEX wallet_payments_batch_idx ON wallet_payments (batch_id)`
  yield* sql`CREATE INDEX wallet_payments_open_idx ON wallet_payments (wallet_address) WHERE state = 'open'`
  // Account orders' payments out of direct_purchases (the latest record of each key); one without an invoice paid nothing and is dropped.
  yield* sql`
    INSERT INTO wallet_payments (key, wallet_address, batch_id, kind, state, req_id, ref, pay_to, amount_nano, valid_until, tx_hash, error, created_at, updated_at)
    SELECT DISTINCT ON (order_id) order_id, wallet_address, NULL, kind,
           CASE WHEN state = 'done' THEN 'paid' WHEN state = 'failed' OR prepared IS NULL THEN 'failed' ELSE 'open' END,
           marketplace_req_id, ref, pay_to, pay_amount_nano, COALESCE(valid_until, 0),
           CASE WHEN state = 'done' THEN tx_hash END,
           CASE WHEN state = 'failed' OR (state <> 'done' AND prepared IS NULL) THEN COALESCE(error_message, 'Not paid') END,
           created_at, updated_at
    FROM direct_purchases
    WHERE order_id LIKE 'hw-%' AND kind IN ('stars', 'premium')
      AND marketplace_req_id IS NOT NULL AND ref IS NOT NULL AND pay_to IS NOT NULL AND pay_amount_nano IS NOT NULL
      AND (state <> 'done' OR tx_hash IS NOT NULL)
    ORDER BY order_id, created_at DESC`
  yield* sql`DELETE FROM direct_purchases WHERE order_id LIKE 'hw-%'`
})
