import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/**
 * Quotes of the wallet road (purchases the buyer's own wallet signs through TON Connect): the
 * invoice answered, the signed message reported, and how the quote settled. A quote survives a
 * restart, so a payment found on chain later still settles it. At most one latest quote per
 * (network, wallet, order id); a final state is never left. The account is the wallet's public
 * description; there is no column for a mnemonic or a key, on purpose.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient
  yield* sql`
    CREATE TABLE wallet_quotes (
      id               bigserial PRIMARY KEY,
      order_id         text NOT NULL CHECK (order_id ~ '^[A-Za-z0-9_.:-]{1,128}$'),
      network          text NOT NULL CHECK (network IN ('mainnet', 'testnet', 'sandbox')),
      wallet_address   text NOT NULL CHECK (wallet_address ~ '^-?[0-9]+:[0-9a-f]{64}$'),
      account          jsonb NOT NULL,
      kind             text NOT NULL CHECK (kind IN ('stars', 'premium', 'ton_topup')),
      fingerprint      text NOT NULL CHECK (fingerprint ~ '^[0-9a-f]{64}$'),
      recipient        text NOT NULL,
      units            integer CHECK (units > 0),
      amount_nano      bigint CHECK (amount_nano > 0),
      req_id           text NOT NULL,
      ref              text NOT NULL,
      pay_to           text NOT NULL,
      pay_amount_nano  bigint NOT NULL CHECK (pay_amount_nano > 0),
      payload          text NOT NULL,
      valid_until      bigint NOT NULL,
      state            text NOT NULL CHECK (state IN ('awaiting_payment', 'paid', 'delivered', 'paid_unconfirmed', 'expired', 'failed')),
      boc              text,
      confirm          text NOT NULL DEFAULT 'unsent' CHECK (confirm IN ('accepted', 'refused', 'unsent')),
      tx_hash          text,
      paid_at          bigint,
      note             text,
      latest           boolean NOT NULL DEFAULT true,
      created_at       timestamptz NOT NULL,
      updated_at       timestamptz NOT NULL,
      settled_at       timestamptz,
      CHECK (state NOT IN ('paid', 'delivered') OR tx_hash IS NOT NULL),
      CHECK ((settled_at IS NULL) = (state IN ('awaiting_payment', 'paid')))
    )`
  yield* sql`CREATE UNIQUE INDEX wallet_quotes_latest_idx ON wallet_quotes (network, wallet_address, order_id) WHERE latest`
  yield* sql`CREATE INDEX wallet_quotes_open_idx ON wallet_quotes (created_at) WHERE state IN ('awaiting_payment', 'paid')`
  yield* sql`CREATE INDEX wallet_quotes_ref_idx ON wallet_quotes (ref)`
})
