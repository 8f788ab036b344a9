import { Effect, Layer, Option, Result } from "effect"
import type { PaymentId, TopupId } from "../ids.ts"
import type { IncomingPayment, NewIncomingPayment } from "../payments/IncomingPayment.ts"
import { PaymentAlreadyMatched, PaymentNotFound } from "../payments/PaymentErrors.ts"
import { IncomingPayments } from "../ports/IncomingPayments.ts"
import { MemoryDb, type MemoryState, nextId } from "./MemoryDb.ts"
import { paginate } from "./paginate.ts"

/** `IncomingPayments` over the in-memory database. */
export const MemoryIncomingPayments = Layer.effect(
  IncomingPayments,
  Effect.gen(function* () {
    const db = yield* MemoryDb
    const update = (id: PaymentId, now: Date, patch: Pick<IncomingPayment, "status" | "topupId">) =>
      db.run<IncomingPayment, PaymentNotFound | PaymentAlreadyMatched>((s: MemoryState) => {
        const current = s.payments.get(id)
        if (current === undefined) return Result.fail(new PaymentNotFound({ paymentId: id }))
        if (current.status === "matched")
          return Result.fail(new PaymentAlreadyMatched({ paymentId: id, status: current.status }))
        const next: IncomingPayment = { ...current, ...patch, updatedAt: now }
        s.payments.set(id, next)
        return Result.succeed(next)
      })

    return IncomingPayments.of({
      record: (payment: NewIncomingPayment, now: Date) =>
        db.read((s) => {
          const first =
            payment.externalId === null
              ? undefined
              : [...s.payments.values()].find((p) => p.externalId === payment.externalId)
          if (first !== undefined) return { payment: first, created: false }
          const created: IncomingPayment = {
            id: nextId(s, "payments") as PaymentId,
            ...payment,
            status: "received",
            topupId: null,
            createdAt: now,
            updatedAt: now
          }
          s.payments.set(created.id, created)
          return { payment: created, created: true }
        }),
      find: (id) => db.read((s) => Option.fromNullishOr(s.payments.get(id))),
      markMatched: (id, topupId: TopupId, now) => update(id, now, { status: "matched", topupId }),
      markUnresolved: (id, status, now) => update(id, now, { status, topupId: null }),
      list: (filter) =>
        db.read((s) =>
          paginate(
            [...s.payments.values()]
              .filter((p) => filter.status === undefined || filter.status.includes(p.status))
              .filter(
                (p) =>
                  (filter.from === undefined || p.createdAt >= filter.from) &&
                  (filter.to === undefined || p.createdAt < filter.to)
              )
              .filter((p) => filter.amountUzs === undefined || p.amountUzs === filter.amountUzs)
              .filter(
                (p) =>
                  filter.matchedBy === undefined ||
                  (p.topupId !== null &&
                    s.topups.get(p.topupId)?.confirmedBy === (filter.matchedBy === "operator" ? "operator" : "payment"))
              )
              .sort(
                (a, b) =>
                  (a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id) *
                  (filter.newestFirst === true ? -1 : 1)
              ),
            filter
          )
        )
    })
  })
)
