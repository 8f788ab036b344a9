import {
  type Page,
  type PageRequest,
  type TelegramIdentity,
  Tier,
  type User,
  UserId,
  UserNotFound,
  Uzs
} from "@resale/core"
import { Users } from "@resale/core/ports"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { DateColumn, IntColumn, intAs, pageTotal, rowDecoder } from "./Rows.ts"
import { orDieSql } from "./SqlValues.ts"

/** A row of `users` as `columns` below selects it, decoded into the core's `User`. */
const UserRow = Schema.Struct({
  id: intAs(UserId),
  telegramId: IntColumn,
  username: Schema.NullOr(Schema.String),
  firstName: Schema.NullOr(Schema.String),
  photoUrl: Schema.NullOr(Schema.String),
  tier: Tier,
  hasApiKey: Schema.Boolean,
  botChatId: Schema.NullOr(IntColumn),
  createdAt: DateColumn
}).pipe(
  Schema.encodeKeys({
    telegramId: "telegram_id",
    firstName: "first_name",
    photoUrl: "photo_url",
    hasApiKey: "has_api_key",
    botChatId: "bot_chat_id",
    createdAt: "created_at"
  })
)

const userRows = rowDecoder("users", UserRow)
const keyBalanceRows = rowDecoder(
  "users",
  Schema.Struct({ userId: intAs(UserId), balance: intAs(Uzs) }).pipe(
    Schema.encodeKeys({ userId: "user_id", balance: "balance_uzs" })
  )
)

/** Usernames are stored as given and compared without the at-sign, case-insensitively. */
const bareUsername = (name: string): string => name.trim().replace(/^@/, "")

/** `Users` on the `users` table; every user gets its `accounts` row (balance 0) in the same statement. */
export const PgUsers = {
  layer: Layer.effect(
    Users,
    Effect.gen(function* () {
      const sql = yield* SqlClient
      const columns = sql`id, telegram_id, username, first_name, photo_url, tier, api_key_hash IS NOT NULL AS has_api_key, bot_chat_id, created_at`

      const one = userRows.first

      const upsertTelegram = Effect.fn("Users.upsertTelegram")(function* (identity: TelegramIdentity, now: Date) {
        const username = identity.username === null ? null : bareUsername(identity.username)
        return yield* userRows.one(
          yield* sql`
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
        )
      }, orDieSql)

      const find = Effect.fn("Users.find")(function* (userId: UserId) {
        return yield* one(yield* sql`SELECT ${columns} FROM users WHERE id = ${userId}`)
      }, orDieSql)

      const findByTelegramId = Effect.fn("Users.findByTelegramId")(function* (telegramId: number) {
        return yield* one(yield* sql`SELECT ${columns} FROM users WHERE telegram_id = ${telegramId}`)
      }, orDieSql)

      const findByUsername = Effect.fn("Users.findByUsername")(function* (username: string) {
        const name = bareUsername(username)
        if (name === "") return Option.none()
        // Telegram reassigns usernames: the most recently seen holder wins.
        return yield* one(
          yield* sql`
            SELECT ${columns} FROM users WHERE lower(username) = lower(${name})
            ORDER BY updated_at DESC, id DESC LIMIT 1`
        )
      }, orDieSql)

      const findByApiKeyHash = Effect.fn("Users.findByApiKeyHash")(function* (hash: string) {
        return yield* one(yield* sql`SELECT ${columns} FROM users WHERE api_key_hash = ${hash.toLowerCase()}`)
      }, orDieSql)

      const balanceByApiKeyHash = Effect.fn("Users.balanceByApiKeyHash")(function* (hash: string) {
        return yield* keyBalanceRows.first(
          yield* sql`
          SELECT users.id AS user_id, COALESCE(accounts.balance_uzs, 0) AS balance_uzs
          FROM users LEFT JOIN accounts ON accounts.user_id = users.id
          WHERE users.api_key_hash = ${hash.toLowerCase()}`
        )
      }, orDieSql)

      const update = (userId: UserId, rows: ReadonlyArray<unknown>) =>
        Effect.flatMap(
          one(rows),
          Option.match({
            onNone: () => Effect.fail(new UserNotFound({ userId })),
            onSome: Effect.succeed
          })
        )

      const setApiKeyHash = Effect.fn("Users.setApiKeyHash")(function* (userId: UserId, hash: string) {
        return yield* update(
          userId,
          yield* sql`
            UPDATE users SET api_key_hash = ${hash.toLowerCase()}, updated_at = now()
            WHERE id = ${userId} RETURNING ${columns}`
        )
      }, orDieSql)

      const setTier = Effect.fn("Users.setTier")(function* (userId: UserId, tier: Tier) {
        return yield* update(
          userId,
          yield* sql`
            UPDATE users SET tier = GREATEST(tier, ${tier}), updated_at = now()
            WHERE id = ${userId} RETURNING ${columns}`
        )
      }, orDieSql)

      const setBotChat = Effect.fn("Users.setBotChat")(function* (userId: UserId, chatId: number | null) {
        return yield* update(
          userId,
          yield* sql`
            UPDATE users SET bot_chat_id = ${chatId}, updated_at = now()
            WHERE id = ${userId} RETURNING ${columns}`
        )
      }, orDieSql)

      const list = Effect.fn("Users.list")(function* (filter: { readonly search?: string } & PageRequest) {
        const search = filter.search?.trim().replace(/^@/, "") ?? ""
        const where =
          search === ""
            ? sql`true`
            : sql`(strpos(lower(username), lower(${search})) > 0 OR strpos(lower(first_name), lower(${search})) > 0)`
        const rows = yield* sql`
          SELECT ${columns}, count(*) OVER () AS total FROM users WHERE ${where}
          ORDER BY created_at DESC, id DESC LIMIT ${filter.limit} OFFSET ${filter.offset}`
        const total = yield* pageTotal(rows, filter.offset, sql`SELECT count(*) AS total FROM users WHERE ${where}`)
        return { items: yield* userRows.all(rows), total } satisfies Page<User>
      }, orDieSql)

      return Users.of({
        upsertTelegram,
        find,
        findByTelegramId,
        findByUsername,
        findByApiKeyHash,
        balanceByApiKeyHash,
        setApiKeyHash,
        setTier,
        setBotChat,
        list
      })
    })
  )
} as const
