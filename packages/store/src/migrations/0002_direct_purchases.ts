import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/**
 * Direct purchases (paid from the caller's own TON wallet): one row per order id, so an order id pays
 * at most once. The database refuses what must never happen: two in-flight payments holding one
 * wallet's lock, a `done` row without its transaction, a signed message without its hash and seqno.
 * There is no column for a mnemonic or a key, on purpose. Nanoton are bigint; times timestamptz.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient

  yield* sql`
    CREATE TABLE direct_purchases (
      order_id            text PRIMARY KEY CHECK (order_id ~ '^[A-Za-z0-9_.:-]{1,128}$'),
      kind                text NOT NULL CHECK (kind IN ('stars', 'premium', 'ton_topup', 'transfer')),
      state               text NOT NULL CHECK (state IN ('pending', 'sending', 'sent', 'done', 'failed', 'unknown')),
      fingerprint         text NOT NULL CHECK (fingerprint ~ '^[0-9a-f]{64}$'),
      network             text NOT NULL CHECK (network IN ('mainnet', 'testnet', 'sandbox')),
      wallet_address      text NOT NULL,
      wallet_version      text NOT NULL CHECK (wallet_version IN ('v4r2', 'v5r1')),
      recipient           text NOT NULL,
      amount_nano         bigint CHECK (amount_nano > 0),
      units               integer CHECK (units > 0),
      comment             text,
      marketplace_req_id  text,
      ref                 text,
      pay_to              text,
      pay_amount_nano     bigint CHECK (pay_amount_nano > 0),
      prepared            jsonb,
      seqno               bigint,
      external_hash       text CHECK (external_hash ~ '^[0-9a-f]{64}$'),
      valid_until         bigint,
      tx_hash             text,
      fee_nano            bigint CHECK (fee_nano >= 0),
      wallet_lock         text,
      error_reason        text,
      error_message       text,
      attempts            integer NOT NULL DEFAULT 1 CHECK (attempts >= 1),
      history             jsonb NOT NULL DEFAULT '[]'::jsonb,
      created_at          timestamptz NOT NULL,
      updated_at          timestamptz NOT NULL,
      completed_at        timestamptz,
      CHECK (wallet_lock IS NULL OR wallet_lock = wallet_address),
      CHECK (wallet_lock IS NULL OR state IN ('sending', 'sent')),
      CHECK ((prepared IS NULL) = (external_hash IS NULL) AND (prepared IS NULL) = (seqno IS NULL) AND (prepared IS NULL) = (valid_until IS NULL)),
      CHECK (state <> 'sent' OR prepared IS NOT NULL),
      CHECK (state <> 'done' OR (tx_hash IS NOT NULL AND fee_nano IS NOT NULL AND pay_amount_nano IS NOT NULL AND completed_at IS NOT NULL))
    )`
  // One in-flight payment per wallet across every process: the wallet's seqno allows no more.
  yield* sql`CREATE UNIQUE INDEX direct_purchases_wallet_lock_idx ON direct_purchases (wallet_lock) WHERE wallet_lock IS NOT NULL`
  yield* sql`
    CREATE INDEX direct_purchases_open_idx ON direct_purchases (updated_at)
    WHERE state IN ('pending', 'sending', 'sent', 'unknown')`
  yield* sql`CREATE INDEX direct_purchases_wallet_idx ON direct_purchases (wallet_address, created_at)`
  yield* sql`CREATE INDEX direct_purchases_ref_idx ON direct_purchases (ref) WHERE ref IS NOT NULL`
})
