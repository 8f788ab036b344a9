/**
 * pgbench scripts with the statements the store sends for one debit, so the comparison measures the
 * client stack (Effect, @effect/sql-pg, the adapters, the core service), not different SQL.
 * Keep them in step with PgUsers.find, PgLedger.post, PgOutbox.add and Balances.adjust.
 * Variables: :uid (the account) and :neg (the signed amount; "-:amt" breaks prepared mode).
 */

// PgLedger.post: lock the account, insert the entry if the balance allows, move the balance.
const post = `WITH account AS (
  SELECT balance_uzs FROM accounts WHERE user_id = :uid FOR UPDATE
), entry AS (
  INSERT INTO ledger_entries (user_id, amount_uzs, cause, cause_id, note, balance_after_uzs)
  SELECT :uid, :neg, 'adjust', gen_random_uuid()::text, 'bench', balance_uzs + :neg
  FROM account WHERE balance_uzs + :neg >= 0
  ON CONFLICT (cause, cause_id) DO NOTHING
  RETURNING *
), moved AS (
  UPDATE accounts SET balance_uzs = entry.balance_after_uzs
  FROM entry WHERE accounts.user_id = entry.user_id
)
SELECT * FROM entry;`

// PgUsers.find
const findUser = `SELECT id, telegram_id, username, first_name, photo_url, tier, api_key_hash IS NOT NULL AS has_api_key, bot_chat_id, created_at FROM users WHERE id = :uid;`

// PgOutbox.add (the notification Balances.adjust writes for a new entry)
const notify = `INSERT INTO outbox_events (kind, user_id, payload, status, available_at, created_at)
VALUES ('balance.adjusted', :uid, '{"amountUzs":-1,"balanceUzs":0,"reason":"bench"}'::jsonb, 'pending', now(), now())
RETURNING *;`

const header = (uid: number) => `\\set uid ${uid}\n\\set neg -1\n`

// pgbench reads one statement per line unless it ends with ';' … multi-line statements need '\\' joins:
// it is simpler to put each statement on one line.
const oneLine = (statement: string) => statement.replace(/\s*\n\s*/g, " ")

/** The port alone: one autocommit statement per debit. */
export const portScript = (uid: number): string => `${header(uid)}${oneLine(post)}\n`

/** The core service (Balances.adjust): one transaction of three statements per debit. */
export const serviceScript = (uid: number): string =>
  `${header(uid)}BEGIN;\n${oneLine(findUser)}\n${oneLine(post)}\n${oneLine(notify)}\nCOMMIT;\n`
