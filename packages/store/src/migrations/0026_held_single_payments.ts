import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/**
 * The single-payment engine that paid account orders before batches is gone. Its records (moved into
 * `wallet_payments` by 0022 as `open` payments without a batch) were settled only by a look for their
 * `Ref#` on chain, which a migration cannot make: such a message was signed and may have left the
 * wallet. So nothing is guessed and nothing is paid again:
 * - every payment left `open` outside an open batch becomes `held`, with what is known in `error`
 *   (`Ref#`, amount, recipient, validity). A held key is never signed again (the store refuses it)
 *   and the batch engine answers it as an unknown outcome for an operator at once;
 * - its order, while it still holds that charge and waits for the worker (`queued`, `processing`),
 *   moves to `needs_attention` with that evidence, and the operators are told (`order.attention`),
 *   as after any unknown outcome past its limit; one already there gets the evidence added.
 * The operator looks for the `Ref#` among the hot wallet's outgoing messages, then marks the order
 * done with its transaction or refunds it. Completed or refunded orders are left as they are.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient
  yield* sql`ALTER TABLE wallet_payments DROP CONSTRAINT wallet_payments_state_check`
  yield* sql`
    ALTER TABLE wallet_payments ADD CONSTRAINT wallet_payments_state_check
    CHECK (state IN ('open', 'paid', 'failed', 'held'))`
  yield* sql`
    UPDATE wallet_payments p SET state = 'held', updated_at = now(), error = left(
      'Held when batches took over (migration 0026): signed by the earlier single-payment engine and never settled, '
      || 'so it may have left the wallet. Look for Ref#' || p.ref || ' (' || p.amount_nano || ' nanoton to ' || p.pay_to
      || CASE WHEN p.valid_until > 0 THEN ', valid until ' || to_char(to_timestamp(p.valid_until) AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') || ' UTC' ELSE '' END
      || ') among the hot wallet''s outgoing messages, then mark the order done with its transaction or refund it; '
      || 'it is never paid again.', 1000)
    WHERE p.state = 'open'
      AND (p.batch_id IS NULL OR p.batch_id IN (SELECT id FROM wallet_batches WHERE state NOT IN ('signed', 'sent')))`
  // The orders of those payments (keys `hw-<order>-<charge>-<tag>`) that still hold the charge they paid for.
  const moved = yield* sql<{
    id: string
    kind: string
    recipient: string
    checks: number
    ref: string
    error: string
    before: string
  }>`
    WITH held AS (
      SELECT split_part(key, '-', 2)::bigint AS order_id, split_part(key, '-', 3)::int AS charge_seq, ref, error
      FROM wallet_payments WHERE state = 'held' AND key ~ '^hw-[0-9]+-[0-9]+-'),
    target AS (
      SELECT o.id, o.status AS before, h.ref, h.error, o.evidence
      FROM orders o JOIN held h ON h.order_id = o.id AND h.charge_seq = o.charge_seq
      WHERE o.status IN ('queued', 'processing', 'needs_attention') AND o.kind IN ('stars', 'premium')
      FOR UPDATE OF o)
    UPDATE orders o SET
      status = 'needs_attention', next_attempt_at = NULL, updated_at = now(),
      unknown_since = COALESCE(o.unknown_since, now()), unknown_attempts = o.unknown_attempts + 1,
      last_error = left(t.error, 1000), fragment_ref = t.ref,
      evidence = jsonb_build_object(
        'txHash', t.evidence ->> 'txHash', 'ref', t.ref, 'chainState', 'held',
        'answers', (
          SELECT COALESCE(jsonb_agg(a ORDER BY n), '[]'::jsonb) FROM (
            SELECT a, n FROM jsonb_array_elements(COALESCE(t.evidence -> 'answers', '[]'::jsonb) || to_jsonb(left(t.error, 300)))
              WITH ORDINALITY AS e(a, n)
            ORDER BY n DESC LIMIT 5) AS kept))
    FROM target t
    WHERE o.id = t.id
    RETURNING o.id, o.kind, o.recipient, o.unknown_attempts AS checks, t.ref, t.error, t.before`
  // Operators hear of each order newly in their queue, as `OrderWork.unknown` tells them.
  for (const order of moved.filter((o) => o.before !== "needs_attention")) {
    yield* sql`
      INSERT INTO outbox_events (kind, user_id, payload, status, available_at, created_at)
      VALUES ('order.attention', NULL, ${JSON.stringify({
        orderId: Number(order.id),
        kind: order.kind,
        recipient: order.recipient,
        checks: Number(order.checks),
        txHash: null,
        ref: order.ref,
        error: order.error.slice(0, 200)
      })}::jsonb, 'pending', now(), now())`
  }
})
