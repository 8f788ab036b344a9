/**
 * The hot wallet's payment and batch records in memory, under the rules of the port (and of
 * `PgWalletPayments`): a batch is refused when its wallet has no free slot (one for a seqno message),
 * another open batch has its query id, or one of its keys is open or paid already.
 */
import { Effect, Layer, Option } from "effect"
import type { PreparedBatch } from "../ports/Blockchain.ts"
import { type WalletBatch, WalletBatchBusy, type WalletPayment, WalletPayments } from "../ports/WalletPayments.ts"

const isOpen = (batch: WalletBatch) => batch.state === "signed" || batch.state === "sent"

export const makeMemoryWalletPayments = () => {
  const batches = new Map<number, WalletBatch>()
  const payments = new Map<string, WalletPayment>()
  let nextBatch = 1
  let nextPayment = 1

  const openOf = (walletAddress: string) =>
    [...batches.values()].filter((b) => b.walletAddress === walletAddress && isOpen(b))
  const paymentsOf = (batchId: number) =>
    [...payments.values()].filter((p) => p.batchId === batchId).sort((a, b) => a.id - b.id)
  const update = (key: string, change: Partial<WalletPayment>) => {
    const found = payments.get(key)
    if (found !== undefined) payments.set(key, { ...found, ...change })
  }

  const busyWhy = (prepared: PreparedBatch, keys: ReadonlyArray<string>, slots: number) => {
    const open = openOf(prepared.wallet)
    if (open.length >= (prepared.queryId === undefined ? 1 : slots)) return "the wallet has no free batch slot"
    if (prepared.queryId !== undefined && open.some((b) => b.prepared.queryId === prepared.queryId))
      return "the query id is in use"
    const taken = keys.find((k) => {
      const p = payments.get(k)
      return p !== undefined && p.state !== "failed"
    })
    return taken === undefined ? undefined : `payment ${taken} is recorded already`
  }

  return WalletPayments.of({
    record: (network, prepared, news, now, slots = 1) =>
      Effect.suspend(() => {
        const why = busyWhy(
          prepared,
          news.map((p) => p.key),
          slots
        )
        if (why !== undefined) return Effect.fail(new WalletBatchBusy({ message: why }))
        const batch: WalletBatch = {
          id: nextBatch++,
          network,
          walletAddress: prepared.wallet,
          state: "signed",
          prepared,
          txHash: null,
          fee: null,
          createdAt: now
        }
        batches.set(batch.id, batch)
        for (const p of news) {
          payments.set(p.key, {
            ...p,
            id: nextPayment++,
            batchId: batch.id,
            state: "open",
            txHash: null,
            error: null,
            createdAt: now,
            updatedAt: now
          })
        }
        return Effect.succeed(batch)
      }),
    markSent: (batchId) =>
      Effect.sync(() => {
        const batch = batches.get(batchId)
        if (batch !== undefined && batch.state === "signed") batches.set(batchId, { ...batch, state: "sent" })
      }),
    settle: (batchId, outcome, settled, now) =>
      Effect.sync(() => {
        const batch = batches.get(batchId)
        if (batch === undefined || !isOpen(batch)) return
        batches.set(batchId, { ...batch, ...outcome })
        for (const s of settled)
          update(s.key, { state: s.state, txHash: s.txHash ?? null, error: s.error ?? null, updatedAt: now })
      }),
    openBatches: (walletAddress) =>
      Effect.sync(() => openOf(walletAddress).map((batch) => ({ batch, payments: paymentsOf(batch.id) }))),
    find: (key) => Effect.sync(() => Option.fromUndefinedOr(payments.get(key))),
    findMany: (keys) => Effect.sync(() => keys.flatMap((k) => payments.get(k) ?? [])),
    batch: (id) => Effect.sync(() => Option.fromUndefinedOr(batches.get(id)))
  })
}

/** A fresh, empty set of records per build. */
export const MemoryWalletPayments = Layer.sync(WalletPayments, makeMemoryWalletPayments)
