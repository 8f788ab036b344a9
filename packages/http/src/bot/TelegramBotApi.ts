import { Context, Effect, Layer, Redacted, Schema } from "effect"
import { request } from "undici"
import { HttpConfig } from "../server/HttpConfig.ts"

export class TelegramBotApiError extends Schema.TaggedError<TelegramBotApiError>()("TelegramBotApiError", {
  method: Schema.String,
  message: Schema.String
}) {}

/** The few Telegram Bot API calls the server makes (base URL `TELEGRAM_API_URL`, so tests can receive them). */
export class TelegramBotApi extends Context.Service<TelegramBotApi, {
  readonly sendMessage: (chatId: number, text: string) => Effect.Effect<void, TelegramBotApiError>
}>()("http/bot/TelegramBotApi") {
  static readonly layer = Layer.effect(
    TelegramBotApi,
    Effect.gen(function*() {
      const config = yield* HttpConfig
      const call = (method: string, body: unknown) =>
        Effect.tryPromise({
          try: async (signal) => {
            const url = `${config.telegramApiUrl}/bot${Redacted.value(config.botToken)}/${method}`
            const response = await request(url, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify(body),
              signal,
              headersTimeout: 10_000,
              bodyTimeout: 10_000
            })
            const text = await response.body.text()
            if (response.statusCode >= 300) throw new Error(`status ${response.statusCode}: ${text.slice(0, 200)}`)
          },
          // The token is part of the URL: never put the raw error (which may echo it) in the message.
          catch: (error) =>
            new TelegramBotApiError({
              method,
              message: String((error as Error)?.message ?? "request failed").replaceAll(Redacted.value(config.botToken), "<token>")
            })
        })
      return TelegramBotApi.of({
        sendMessage: (chatId, text) => call("sendMessage", { chat_id: chatId, text })
      })
    })
  )
}
