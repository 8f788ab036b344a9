import { NotifierError } from "@resale/core/ports/Notifier.ts"
import { Effect } from "effect"
import { type BotApiOptions, makeBotApi } from "./BotApi.ts"

export type { BotApiOptions } from "./BotApi.ts"

const failure = (reason: NotifierError["reason"], message: string) =>
  new NotifierError({ channel: "bot", reason, message })

/**
 * Bot API `sendMessage` (the Notifier's bot channel), over the `HttpClient` in context. 403 (bot
 * blocked, user deactivated) and "chat not found" -> Gone (unlink the chat); 429/5xx/no answer ->
 * Unavailable; other 4xx -> Rejected. Transient failures were already retried by the client's policy.
 */
export const makeTelegramBotSender = (options: BotApiOptions) =>
  Effect.map(makeBotApi(options), (bot) =>
    Effect.fn("TelegramBot.sendMessage")(function* (chatId: number, text: string) {
      const { answer, status } = yield* bot
        .call("sendMessage", {
          chat_id: chatId,
          text,
          link_preview_options: { is_disabled: true }
        })
        .pipe(Effect.mapError(() => failure("Unavailable", "Bot API did not answer")))
      if (status >= 200 && status < 300 && answer.ok !== false) return
      const description = (answer.description ?? "").slice(0, 200)
      const what = `Bot API answered ${status}${description === "" ? "" : `: ${description}`}`
      if (status === 403 || /chat not found/i.test(description)) return yield* failure("Gone", what)
      if (status === 429 || status >= 500) return yield* failure("Unavailable", what)
      return yield* failure("Rejected", what)
    })
  )
