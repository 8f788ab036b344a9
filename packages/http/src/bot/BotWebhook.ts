import { Accounts } from "@resale/core/accounts/Accounts.ts"
import { Balances } from "@resale/core/ledger/Balances.ts"
import { Notifications } from "@resale/core/outbox/Notifications.ts"
import { Context, Effect, Layer } from "effect"
import { TelegramBotApi } from "./TelegramBotApi.ts"

interface TelegramUser {
  readonly id?: unknown
  readonly is_bot?: unknown
  readonly username?: unknown
  readonly first_name?: unknown
}
interface TelegramUpdate {
  readonly update_id?: unknown
  readonly message?: {
    readonly text?: unknown
    readonly from?: TelegramUser
    readonly chat?: { readonly id?: unknown; readonly type?: unknown }
  }
}

export type WebhookOutcome = "handled" | "duplicate" | "ignored"

const formatUzs = (n: number) => n.toString().replace(/\B(?=(\d{3})+(?!\d))/g, " ")

/**
 * Bot updates: each `update_id` is handled once (Telegram re-delivers until it gets a 200);
 * `/start` creates or refreshes the sender's account, links the chat for notifications and
 * answers with the balance. Seen updates are recorded by `Notifications.firstSeenBotUpdate`.
 */
export class BotWebhook extends Context.Service<
  BotWebhook,
  {
    readonly handle: (update: unknown) => Effect.Effect<WebhookOutcome>
  }
>()("http/bot/BotWebhook") {
  static readonly layer = Layer.effect(
    BotWebhook,
    Effect.gen(function* () {
      const notifications = yield* Notifications
      const accounts = yield* Accounts
      const balances = yield* Balances
      const bot = yield* TelegramBotApi

      const handle = Effect.fn("BotWebhook.handle")(function* (raw: unknown) {
        const update = (raw ?? {}) as TelegramUpdate
        if (typeof update.update_id !== "number" || !Number.isSafeInteger(update.update_id)) return "ignored" as const
        if (!(yield* notifications.firstSeenBotUpdate(update.update_id))) return "duplicate" as const
        const message = update.message
        const from = message?.from
        const chatId = message?.chat?.id
        const text = typeof message?.text === "string" ? message.text.trim() : ""
        if (!from || typeof from.id !== "number" || from.is_bot === true || typeof chatId !== "number")
          return "ignored" as const
        if (!/^\/start(@\w+)?(\s|$)/.test(text)) return "ignored" as const
        const user = yield* accounts.signIn({
          telegramId: from.id,
          username: typeof from.username === "string" ? from.username : null,
          firstName: typeof from.first_name === "string" ? from.first_name : null,
          photoUrl: null
        })
        yield* accounts.linkBotChat(user.id, chatId).pipe(Effect.orDie)
        const balance = yield* balances.balance(user.id)
        yield* bot
          .sendMessage(chatId, `Your account is linked. Balance: ${formatUzs(balance)} UZS`)
          .pipe(Effect.catch((error) => Effect.logWarning("bot reply failed", error.message)))
        return "handled" as const
      })
      return BotWebhook.of({ handle })
    })
  )
}
