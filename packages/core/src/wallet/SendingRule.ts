/**
 * When a hot wallet's collector, holding a free slot, sends what is ready and when it holds it for a
 * fuller batch. A message lands in the block after it is sent, so holding what is ready never makes it
 * earlier: it only saves messages (fees, and confirmations to read). So a free slot sends at once while
 * orders trickle in, and holds only where a fuller batch is worth a later block:
 * - every slot sent within `fillWithin` (about a block): at most `parallel` messages per block;
 * - a rush: more invoices are being quoted than wait, so the batch is still filling fast; it waits
 *   until the latest message is `fillWithin` old, as one message per block carries the rush.
 * Never held: a lone order with nothing in flight, and a full batch (what overflows one message needs
 * another in the same block).
 */

/** What the collector knows when one of its slots is free. */
export interface SlotState {
  readonly now: number
  /** The wallet's messages in flight (not settled yet). */
  readonly running: number
  /** Messages the wallet allows in flight: 1 for a seqno wallet, `HOT_WALLET_PARALLEL` for a Highload V3. */
  readonly parallel: number
  /** When the latest `parallel` messages went out (epoch millis), the oldest first. */
  readonly sent: ReadonlyArray<number>
  /** Invoices waiting for a message. */
  readonly ready: number
  /** Purchases of the wallet still quoting their invoice: what will be ready soon. */
  readonly quoting: number
  /** Most payments one message carries. */
  readonly limit: number
  /** Millis: about one block of the chain (`HOT_WALLET_BATCH_WAIT`); zero holds nothing. */
  readonly fillWithin: number
}

/** Whether the free slot waits (looked at again shortly) instead of sending what is ready now. */
export const holdForFullerBatch = (s: SlotState): boolean => {
  if (s.running === 0 || s.ready >= s.limit || s.sent.length === 0) return false
  const everySlotSentLately = s.sent.length >= s.parallel && s.now - s.sent[0]! < s.fillWithin
  const rush = s.quoting > s.ready && s.now - s.sent[s.sent.length - 1]! < s.fillWithin
  return everySlotSentLately || rush
}
