import { type Page, type PageRequest, type TelegramIdentity, type Tier, type User, type UserId, UserNotFound, Users } from "@resale/core"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { date, id, int, intOrNull, orDieSql, totalOf } from "./SqlValues.ts"

interface UserRow {
  readonly id: bigint
  readonly telegram_id: bigint
  readonly username: string | null
  readonly first_name: string | null
  readonly photo_url: string | null
  readonly tier: number
  readonly has_api_key: boolean
  readonly bot_chat_id: bigint | null
  readonly created_at: Date
}

const toUser = (row: UserRow): User => ({
  id: id<UserId>(row.id),
  telegramId: int(row.telegram_id),
  username: row.username,
  firstName: row.first_name,
  photoUrl: row.photo_url,
  tier: int(row.tier) as Tier,
  hasApiKey: row.has_api_key,
  botChatId: intOrNull(row.bot_chat_id),
  createdAt: date(row.created_at)
})

/** Usernames are stored as given and compared without the at-sign, case-insensitively. */
const bareUsername = (name: string): string => name.trim().replace(/^@/, "")

/** `Users` on the `users` table; every user gets its `accounts` row (balance 0) in the same statement. */
export const PgUsers = {
  layer: Layer.effect(
    Users,
    Effect.gen(function*() {
      const sql = yield* SqlClient
      const columns = sql`id, telegram_id, username, first_name, photo_url, tier, api_key_hash IS NOT NULL AS has_api_key, bot_chat_id, created_at`

      const one = (rows: ReadonlyArray<UserRow>): Option.Option<User> =>
        rows[0] === undefined ? Option.none() : Option.some(toUser(rows[0]))

      const upsertTelegram = Effect.fn("Users.upsertTelegram")(function*(identity: TelegramIdentity, now: Date) {
        const username = identity.username === null ? null : bareUsername(identity.username)
        const rows = yield* sql<UserRow>`
          WITH u AS (
            INSERT INTO users (telegram_id, username, first_name, photo_url, created_at, updated_at)
            VALUES (${identity.telegramId}, ${username}, ${identity.firstName}, ${identity.photoUrl}, ${now}, ${now})
            ON CONFLICT (telegram_id) DO UPDATE
              SET username = EXCLUDED.username, first_name = EXCLUDED.first_name,
                  photo_url = EXCLUDED.photo_url, updated_at = EXCLUDED.updated_at
            RETURNING *
          ), a AS (
            INSERT INTO accounts (user_id) SELECT id FROM u ON CONFLICT (user_id) DO NOTHING
          )
          SELECT ${columns} FROM u`
        const [row] = rows
        if (row === undefined) return yield* Effect.die(new Error("user upsert returned no row"))
        return toUser(row)
      }, orDieSql)

      const find = Effect.fn("Users.find")(function*(userId: UserId) {
        return one(yield* sql<UserRow>`SELECT ${columns} FROM users WHERE id = ${userId}`)
      }, orDieSql)

      const findByTelegramId = Effect.fn("Users.findByTelegramId")(function*(telegramId: number) {
        return one(yield* sql<UserRow>`SELECT ${columns} FROM users WHERE telegram_id = ${telegramId}`)
      }, orDieSql)

      const findByUsername = Effect.fn("Users.findByUsername")(function*(username: string) {
        const name = bareUsername(username)
        if (name === "") return Option.none()
        // Telegram reassigns usernames: the most recently seen holder wins.
        return one(
          yield* sql<UserRow>`
            SELECT ${columns} FROM users WHERE lower(username) = lower(${name})
            ORDER BY updated_at DESC, id DESC LIMIT 1`
        )
      }, orDieSql)

      const findByApiKeyHash = Effect.fn("Users.findByApiKeyHash")(function*(hash: string) {
        return one(yield* sql<UserRow>`SELECT ${columns} FROM users WHERE api_key_hash = ${hash.toLowerCase()}`)
      }, orDieSql)

      const update = (userId: UserId, rows: ReadonlyArray<UserRow>) =>
        Option.match(one(rows), {
          onNone: () => Effect.fail(new UserNotFound({ userId })),
          onSome: Effect.succeed
        })

      const setApiKeyHash = Effect.fn("Users.setApiKeyHash")(function*(userId: UserId, hash: string) {
        return yield* update(
          userId,
          yield* sql<UserRow>`
            UPDATE users SET api_key_hash = ${hash.toLowerCase()}, updated_at = now()
            WHERE id = ${userId} RETURNING ${columns}`
        )
      }, orDieSql)

      const setTier = Effect.fn("Users.setTier")(function*(userId: UserId, tier: Tier) {
        return yield* update(
          userId,
          yield* sql<UserRow>`
            UPDATE users SET tier = GREATEST(tier, ${tier}), updated_at = now()
            WHERE id = ${userId} RETURNING ${columns}`
        )
      }, orDieSql)

      const setBotChat = Effect.fn("Users.setBotChat")(function*(userId: UserId, chatId: number | null) {
        return yield* update(
          userId,
          yield* sql<UserRow>`
            UPDATE users SET bot_chat_id = ${chatId}, updated_at = now()
            WHERE id = ${userId} RETURNING ${columns}`
        )
      }, orDieSql)

      const list = Effect.fn("Users.list")(function*(filter: { readonly search?: string } & PageRequest) {
        const search = filter.search?.trim().replace(/^@/, "") ?? ""
        const where = search === ""
          ? sql`true`
          : sql`(strpos(lower(username), lower(${search})) > 0 OR strpos(lower(first_name), lower(${search})) > 0)`
        const rows = yield* sql<UserRow & { readonly total: bigint }>`
          SELECT ${columns}, count(*) OVER () AS total FROM users WHERE ${where}
          ORDER BY created_at DESC, id DESC LIMIT ${filter.limit} OFFSET ${filter.offset}`
        const total = rows.length > 0 || filter.offset === 0
          ? totalOf(rows)
          : int((yield* sql<{ n: bigint }>`SELECT count(*) AS n FROM users WHERE ${where}`)[0]?.n ?? 0)
        return { items: rows.map(toUser), total } satisfies Page<User>
      }, orDieSql)

      return Users.of({
        upsertTelegram,
        find,
        findByTelegramId,
        findByUsername,
        findByApiKeyHash,
        setApiKeyHash,
        setTier,
        setBotChat,
        list
      })
    })
  )
} as const
