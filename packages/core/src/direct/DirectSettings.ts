import { Context, type Duration } from "effect"

/** How long a direct request waits for the chain and the marketplace before it answers "unknown". */
export interface DirectSettingsShape {
  /** Waiting for the wallet's transaction after sending. A real message is dead 60 s + margin after signing. */
  readonly confirmWithin: Duration.Input
  /** Waiting for the marketplace to report delivery after the payment is on chain. */
  readonly deliveryWithin: Duration.Input
  /** Pause between two looks at the chain or the marketplace. */
  readonly pollEvery: Duration.Input
  /** An in-flight record untouched this long belongs to a dead process; reconciliation takes it over. */
  readonly staleAfter: Duration.Input
  /**
   * Lower bound of the fees, checked before the marketplace is asked (the Blockchain adapter checks the
   * exact amount + its own reserve when it signs).
   */
  readonly feeReserve: bigint
  /**
   * The longest a request waits before it answers. A payment still running then goes on in the
   * background and the caller gets `OrderPending` with the order id: clients give up at about 30 s.
   */
  readonly answerWithin: Duration.Input
  /** An identical request under the id of an order finished this recently gets that order's result. */
  readonly replayWithin: Duration.Input
  /**
   * Whether another request may run under the id of a `done` order (the direct surface: bots reuse
   * ids). false: it is refused with `OrderIdReused` (the worker: one charge, one payment, ever).
   */
  readonly reuseFinishedIds: boolean
}

/** The defaults; `@resale/config`'s catalogue names the `DIRECT_*` ones from here. */
export const DEFAULT_DIRECT_SETTINGS = {
  confirmWithin: "75 seconds",
  deliveryWithin: "60 seconds",
  pollEvery: "1500 millis",
  staleAfter: "10 minutes",
  feeReserve: 10_000_000n,
  answerWithin: "25 seconds",
  replayWithin: "15 minutes",
  reuseFinishedIds: true
} as const satisfies DirectSettingsShape

export const DirectSettings = Context.Reference<DirectSettingsShape>("core/direct/DirectSettings", {
  defaultValue: () => DEFAULT_DIRECT_SETTINGS
})
