import { Effect, Layer, Option, Result } from "effect"
import { InfoLookupQuotaExceeded } from "../accounts/AccountErrors.ts"
import { AccountActivity } from "../ports/AccountActivity.ts"
import { BotUpdates } from "../ports/BotUpdates.ts"
import { InfoLookups } from "../ports/InfoLookups.ts"
import { Pricing } from "../ports/Pricing.ts"
import { PushSubscriptions } from "../ports/PushSubscriptions.ts"
import { Receipts } from "../ports/Receipts.ts"
import { Sessions } from "../ports/Sessions.ts"
import { Transactor } from "../ports/Transactor.ts"
import { MemoryDb } from "./MemoryDb.ts"

// The small single-table ports, together: each is a few lines over one map of the memory state.

export const MemoryTransactor = Layer.effect(
  Transactor,
  Effect.map(MemoryDb, (db) => Transactor.of({ withTransaction: db.withTransaction }))
)

export const MemoryPricing = Layer.effect(
  Pricing,
  Effect.map(MemoryDb, (db) =>
    Pricing.of({
      get: db.read((s) => s.prices),
      set: (prices) =>
        db.read((s) => {
          s.prices = prices
          return prices
        })
    })
  )
)

export const MemorySessions = Layer.effect(
  Sessions,
  Effect.map(MemoryDb, (db) =>
    Sessions.of({
      create: (session) => db.read((s) => void s.sessions.set(session.id, session)),
      find: (id, now) =>
        db.read((s) =>
          Option.filter(Option.fromNullishOr(s.sessions.get(id)), (x) => x.expiresAt.getTime() > now.getTime())
        ),
      remove: (id) => db.read((s) => void s.sessions.delete(id)),
      claimLogin: (hash, keepUntil) =>
        db.read((s) => {
          if (s.usedLogins.has(hash)) return false
          s.usedLogins.set(hash, keepUntil)
          return true
        }),
      removeExpired: (now) =>
        db.read((s) => {
          for (const [hash, until] of s.usedLogins) if (until.getTime() <= now.getTime()) s.usedLogins.delete(hash)
          const expired = [...s.sessions.values()].filter((x) => x.expiresAt.getTime() <= now.getTime())
          for (const x of expired) s.sessions.delete(x.id)
          return expired.length
        })
    })
  )
)

export const MemoryBotUpdates = Layer.effect(
  BotUpdates,
  Effect.map(MemoryDb, (db) =>
    BotUpdates.of({
      markSeen: (updateId) =>
        db.read((s) => {
          if (s.botUpdates.has(updateId)) return false
          s.botUpdates.add(updateId)
          return true
        })
    })
  )
)

export const MemoryPushSubscriptions = Layer.effect(
  PushSubscriptions,
  Effect.map(MemoryDb, (db) =>
    PushSubscriptions.of({
      upsert: (subscription, keep) =>
        db.read((s) => {
          const current = s.push.get(subscription.endpoint)
          if (current !== undefined && current.userId !== subscription.userId) return "taken" as const
          s.push.set(subscription.endpoint, subscription)
          const own = [...s.push.values()]
            .filter((p) => p.userId === subscription.userId)
            .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
          for (const old of own.slice(keep)) s.push.delete(old.endpoint)
          return "stored" as const
        }),
      listByUser: (userId) => db.read((s) => [...s.push.values()].filter((p) => p.userId === userId)),
      remove: (endpoint) => db.read((s) => void s.push.delete(endpoint))
    })
  )
)

export const MemoryInfoLookups = Layer.effect(
  InfoLookups,
  Effect.map(MemoryDb, (db) =>
    InfoLookups.of({
      count: (userId, day) => db.read((s) => s.infoLookups.get(`${userId}:${day}`) ?? 0),
      take: (userId, day, limit) =>
        db.run<number, InfoLookupQuotaExceeded>((s) => {
          const used = s.infoLookups.get(`${userId}:${day}`) ?? 0
          if (used >= limit) return Result.fail(new InfoLookupQuotaExceeded({ limit, day }))
          s.infoLookups.set(`${userId}:${day}`, used + 1)
          return Result.succeed(used + 1)
        })
    })
  )
)

export const MemoryReceipts = Layer.effect(
  Receipts,
  Effect.map(MemoryDb, (db) =>
    Receipts.of({
      put: (key, bytes, contentType) => db.read((s) => void s.receipts.set(key, { bytes: bytes.slice(), contentType })),
      get: (key) => db.read((s) => Option.fromNullishOr(s.receipts.get(key)))
    })
  )
)

// One global lock already serialises the memory store, so `lock` has nothing to do.
export const MemoryAccountActivity = Layer.effect(
  AccountActivity,
  Effect.map(MemoryDb, (db) =>
    AccountActivity.of({
      lock: () => Effect.void,
      countSince: (userId, action, since) =>
        db.read((s) => {
          const times = s.activity
            .filter((a) => a.userId === userId && a.action === action && a.at.getTime() > since.getTime())
            .map((a) => a.at.getTime())
          return { count: times.length, oldest: times.length === 0 ? null : new Date(Math.min(...times)) }
        }),
      record: (userId, action, at) => db.read((s) => void s.activity.push({ userId, action, at }))
    })
  )
)
