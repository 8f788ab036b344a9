import { Effect, Layer, Option, Result } from "effect"
import { UserNotFound } from "../accounts/AccountErrors.ts"
import type { TelegramIdentity, Tier, User } from "../accounts/User.ts"
import type { UserId } from "../ids.ts"
import type { Uzs } from "../money/Uzs.ts"
import type { PageRequest } from "../Page.ts"
import { Users } from "../ports/Users.ts"
import { MemoryDb, type MemoryState, nextId } from "./MemoryDb.ts"
import { newestFirst, paginate } from "./paginate.ts"

type Row = MemoryState["users"] extends Map<number, infer R> ? R : never

const toUser = ({ apiKeyHash: _hash, ...user }: Row): User => ({ ...user })
const sameName = (a: string | null, b: string) => a !== null && a.toLowerCase() === b.replace(/^@/, "").toLowerCase()

/** `Users` over the in-memory database; creates the ledger account with the user. */
export const MemoryUsers = Layer.effect(
  Users,
  Effect.gen(function* () {
    const db = yield* MemoryDb
    const update = (id: UserId, f: (row: Row) => Row) =>
      db.run((s) => {
        const row = s.users.get(id)
        if (row === undefined) return Result.fail(new UserNotFound({ userId: id }))
        const next = f(row)
        s.users.set(id, next)
        return Result.succeed(toUser(next))
      })
    const findRow = (p: (row: Row) => boolean) =>
      db.read((s) => Option.map(Option.fromNullishOr([...s.users.values()].find(p)), toUser))

    return Users.of({
      upsertTelegram: (identity: TelegramIdentity, now: Date) =>
        db.read((s) => {
          const existing = [...s.users.values()].find((u) => u.telegramId === identity.telegramId)
          const row: Row =
            existing === undefined
              ? {
                  id: nextId(s, "users") as UserId,
                  ...identity,
                  tier: 0,
                  hasApiKey: false,
                  apiKeyHash: null,
                  botChatId: null,
                  createdAt: now
                }
              : { ...existing, username: identity.username, firstName: identity.firstName, photoUrl: identity.photoUrl }
          s.users.set(row.id, row)
          if (!s.balances.has(row.id)) s.balances.set(row.id, 0)
          return toUser(row)
        }),
      find: (id) => findRow((u) => u.id === id),
      findByTelegramId: (telegramId) => findRow((u) => u.telegramId === telegramId),
      findByUsername: (username) => findRow((u) => sameName(u.username, username)),
      findByApiKeyHash: (hash) => findRow((u) => u.apiKeyHash === hash),
      balanceByApiKeyHash: (hash) =>
        db.read((s) =>
          Option.map(Option.fromNullishOr([...s.users.values()].find((u) => u.apiKeyHash === hash)), (u) => ({
            userId: u.id,
            balance: (s.balances.get(u.id) ?? 0) as Uzs
          }))
        ),
      setApiKeyHash: (id, hash) => update(id, (u) => ({ ...u, apiKeyHash: hash, hasApiKey: true })),
      setTier: (id, tier: Tier) => update(id, (u) => ({ ...u, tier: tier > u.tier ? tier : u.tier })),
      setBotChat: (id, chatId) => update(id, (u) => ({ ...u, botChatId: chatId })),
      list: (filter: { readonly search?: string } & PageRequest) =>
        db.read((s) => {
          const q = filter.search?.toLowerCase()
          const rows = [...s.users.values()]
            .filter(
              (u) => q === undefined || [u.username, u.firstName].some((v) => v !== null && v.toLowerCase().includes(q))
            )
            .sort(newestFirst)
            .map(toUser)
          return paginate(rows, filter)
        })
    })
  })
)
