/**
 * One transfer in flight per wallet, inside this process: a lock per wallet address (so two prepares
 * never read the same seqno) and the last prepared transfer of each wallet until it is known to be
 * final. Across processes the caller's database row is the guard.
 */
import type { PreparedTransfer } from "@resale/core/ports/Blockchain.ts"
import { type Effect, Semaphore } from "effect"

export interface InFlight {
  /** Runs `effect` while holding the wallet's lock (raw address). */
  readonly exclusive: (wallet: string) => <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  readonly current: (wallet: string) => PreparedTransfer | undefined
  readonly hold: (wallet: string, prepared: PreparedTransfer) => void
  /** Forgets the wallet's transfer if it is still this one. */
  readonly release: (wallet: string, externalHash: string) => void
}

export const makeInFlight = (): InFlight => {
  const locks = new Map<string, Semaphore.Semaphore>()
  const pending = new Map<string, PreparedTransfer>()
  const lockOf = (wallet: string): Semaphore.Semaphore => {
    const existing = locks.get(wallet)
    if (existing !== undefined) return existing
    const created = Semaphore.makeUnsafe(1)
    locks.set(wallet, created)
    return created
  }
  return {
    exclusive: (wallet) => (effect) => lockOf(wallet).withPermit(effect),
    current: (wallet) => pending.get(wallet),
    hold: (wallet, prepared) => {
      pending.set(wallet, prepared)
    },
    release: (wallet, externalHash) => {
      if (pending.get(wallet)?.externalHash === externalHash) pending.delete(wallet)
    }
  }
}
