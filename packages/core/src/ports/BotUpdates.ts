import { Context, type Effect } from "effect"

/** Telegram bot `update_id`s already handled: Telegram re-delivers until it gets a 200. */
export class BotUpdates extends Context.Service<
  BotUpdates,
  {
    /** Records the id; true the first time, false for every later call (atomic under concurrency). */
    readonly markSeen: (updateId: number, now: Date) => Effect.Effect<boolean>
  }
>()("core/ports/BotUpdates") {}
