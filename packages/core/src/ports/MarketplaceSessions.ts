/**
 * Marketplace sessions port: which purchase a marketplace cookie session is busy with, shared by
 * every process, and what each invoice's own evidence is.
 *
 * Why: Fragment keeps ONE purchase state per cookie session (the session's latest invoice); its
 * state call carries no invoice id. Its answer is about an invoice only while that invoice is the
 * session's latest one and nobody else is opening another. So one purchase at a time per session:
 *
 * - `take(session, holder, now, until, orLent)` holds a free session (or one whose hold ran out) for a
 *   new purchase and forgets its latest invoice (unknown until `opened`). False when someone else
 *   holds it; with `orLent`, a session whose holder lent it (below) is taken too.
 * - `opened(session, holder, reqId)` records the invoice the holder opened as the session's latest
 *   one; the hold passes to the invoice (holder = its req id). False when the hold was lost meanwhile.
 * - `record(purchase)` keeps the invoice itself: its session, Ref#, and the address and amount
 *   Fragment asked for.
 * - `resume(session, reqId, until)` holds the session for reading that invoice's state: only while
 *   it is still the session's latest invoice and no other purchase holds the session. "held": the
 *   invoice held it already (its purchase is live; the hold keeps its end unless `until` is later);
 *   "taken": it was free and is held until `until`; "refused": the state is not this invoice's.
 * - `lend(session, reqId)`: the invoice keeps its hold (so its delivery can still be read) but lets a
 *   purchase that finds no free session take it over; a take, `opened` or `release` ends the loan.
 *   A batched purchase lends its session while its payment waits for the chain: in quiet times its
 *   delivery is read and confirmed; under load the next purchase does not wait for it.
 * - `release(session, holder)` lets go (no-op for anyone else's hold).
 * - `purchase(reqId)` / `confirmed(reqId, outcome, note)`: the invoice's own record, and the
 *   marketplace's answer to its signed message (`confirmReq`), kept for per-order proof.
 *
 * Holds end at `until` so a dead process never blocks a session for long. Storage failures are defects.
 */
import { Context, type Effect, type Option } from "effect"
import type { Nanoton } from "../money/Nanoton.ts"
import type { ConfirmOutcome } from "./Marketplace.ts"

export interface OpenedPurchase {
  readonly reqId: string
  /** the session's label (never its cookies) */
  readonly session: string
  readonly ref: string
  /** where Fragment asked the money to go, and how much */
  readonly payTo: string
  readonly amount: Nanoton
}

export interface MarketplacePurchase extends OpenedPurchase {
  readonly confirm: ConfirmOutcome
  /** the marketplace's short answer to the signed message, when there was one */
  readonly confirmNote: string | null
}

export type Resumed = "held" | "taken" | "refused"

export class MarketplaceSessions extends Context.Service<
  MarketplaceSessions,
  {
    readonly take: (session: string, holder: string, now: Date, until: Date, orLent?: boolean) => Effect.Effect<boolean>
    readonly opened: (session: string, holder: string, reqId: string, until: Date) => Effect.Effect<boolean>
    readonly record: (purchase: OpenedPurchase) => Effect.Effect<void>
    readonly resume: (session: string, reqId: string, now: Date, until: Date) => Effect.Effect<Resumed>
    readonly lend: (session: string, reqId: string) => Effect.Effect<void>
    readonly release: (session: string, holder: string) => Effect.Effect<void>
    readonly purchase: (reqId: string) => Effect.Effect<Option.Option<MarketplacePurchase>>
    readonly confirmed: (reqId: string, outcome: ConfirmOutcome, note: string | null) => Effect.Effect<void>
  }
>()("core/ports/MarketplaceSessions") {}
