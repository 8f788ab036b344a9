/**
 * `MarketplaceSessions` in memory: the default when no shared store is provided. It serializes the
 * purchases of one process only; several processes buying through one Fragment session need the
 * PostgreSQL implementation (store package), which the server, worker and CLI provide.
 */
import { Effect, Option } from "effect"
import type { ConfirmOutcome } from "@resale/core/ports/Marketplace.ts"
import {
  type MarketplacePurchase,
  MarketplaceSessions,
  type OpenedPurchase,
  type Resumed
} from "@resale/core/ports/MarketplaceSessions.ts"

interface SessionRow {
  latest: string | null
  holder: string | null
  heldUntil: number
  /** the holder lets a purchase finding no free session take it over */
  lent: boolean
}

const MAX_PURCHASES = 10_000

export const makeMemorySessions = (): MarketplaceSessions["Service"] => {
  const sessions = new Map<string, SessionRow>()
  const purchases = new Map<string, MarketplacePurchase>()

  const rowOf = (session: string): SessionRow => {
    const known = sessions.get(session)
    if (known !== undefined) return known
    const fresh: SessionRow = { latest: null, holder: null, heldUntil: 0, lent: false }
    sessions.set(session, fresh)
    return fresh
  }
  const free = (row: SessionRow, now: number) => row.holder === null || row.heldUntil <= now

  return MarketplaceSessions.of({
    take: (session, holder, now, until, orLent = false) =>
      Effect.sync(() => {
        const row = rowOf(session)
        if (!free(row, now.getTime()) && !(orLent && row.lent)) return false
        Object.assign(row, { latest: null, holder, heldUntil: until.getTime(), lent: false })
        return true
      }),
    opened: (session, holder, reqId, until) =>
      Effect.sync(() => {
        const row = rowOf(session)
        if (row.holder !== holder) return false
        Object.assign(row, { latest: reqId, holder: reqId, heldUntil: until.getTime(), lent: false })
        return true
      }),
    record: (purchase: OpenedPurchase) =>
      Effect.sync(() => {
        if (purchases.size >= MAX_PURCHASES) purchases.delete(purchases.keys().next().value ?? "")
        purchases.set(purchase.reqId, { ...purchase, confirm: "unsent", confirmNote: null })
      }),
    resume: (session, reqId, now, until) =>
      Effect.sync((): Resumed => {
        const row = rowOf(session)
        if (row.latest !== reqId) return "refused"
        if (row.holder === reqId && row.heldUntil > now.getTime()) {
          row.heldUntil = Math.max(row.heldUntil, until.getTime())
          return "held"
        }
        if (!free(row, now.getTime())) return "refused"
        Object.assign(row, { holder: reqId, heldUntil: until.getTime(), lent: false })
        return "taken"
      }),
    lend: (session, reqId) =>
      Effect.sync(() => {
        const row = rowOf(session)
        if (row.holder === reqId) row.lent = true
      }),
    release: (session, holder) =>
      Effect.sync(() => {
        const row = rowOf(session)
        if (row.holder === holder) Object.assign(row, { holder: null, heldUntil: 0, lent: false })
      }),
    purchase: (reqId) => Effect.sync(() => Option.fromUndefinedOr(purchases.get(reqId))),
    confirmed: (reqId, outcome: ConfirmOutcome, note) =>
      Effect.sync(() => {
        const known = purchases.get(reqId)
        // an accepted message stays accepted: a later failed re-report does not undo the proof
        if (known !== undefined && known.confirm !== "accepted")
          purchases.set(reqId, { ...known, confirm: outcome, confirmNote: note })
      })
  })
}
