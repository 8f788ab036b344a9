import { Effect, Layer } from "effect"
import type { LedgerFigure } from "../ports/ReportFigures.ts"
import { ReportFigures, type ReportWindow } from "../ports/ReportFigures.ts"
import { periodStart, tashkentDay } from "../reports/ReportPeriods.ts"
import { MemoryDb } from "./MemoryDb.ts"

/**
 * `ReportFigures` over the in-memory database, summing the ledger as the SQL adapter does. The memory
 * store keeps no wallet payments, so it reports no TON.
 */
export const MemoryReportFigures = Layer.effect(
  ReportFigures,
  Effect.gen(function* () {
    const db = yield* MemoryDb
    const ledger = (window: ReportWindow) =>
      db.read((s) => {
        const sums = new Map<string, LedgerFigure>()
        for (const e of s.ledger) {
          if (e.createdAt < window.start || e.createdAt >= window.end) continue
          const period = periodStart(window.period, tashkentDay(e.createdAt))
          const orderId = Number(e.causeId.split(":")[0])
          const detail =
            e.cause === "topup"
              ? s.topups.get(Number(e.causeId))?.paymentId != null
                ? "payment"
                : (s.topups.get(Number(e.causeId))?.confirmedBy ?? null)
              : e.cause === "order" || e.cause === "refund"
                ? (s.orders.get(orderId)?.item.kind ?? null)
                : null
          const key = `${period}|${e.cause}|${detail}`
          const before = sums.get(key)
          sums.set(key, {
            period,
            cause: e.cause,
            detail,
            amountUzs: (before?.amountUzs ?? 0) + e.amount,
            entries: (before?.entries ?? 0) + 1
          })
        }
        return [...sums.values()]
      })
    return ReportFigures.of({
      ledger,
      ton: () => Effect.succeed([]),
      outstandingAt: (instant) =>
        db.read((s) => s.ledger.filter((e) => e.createdAt < instant).reduce((n, e) => n + e.amount, 0))
    })
  })
)
