import { makeBotApi } from "@resale/telegram/BotApi.ts"
import { OutboundHttp } from "@resale/outbound"
import { Context, Effect, Layer, Schema } from "effect"
import { HttpConfig } from "@resale/webkit/HttpConfig.ts"

export class TelegramBotApiError extends Schema.TaggedError<TelegramBotApiError>()("TelegramBotApiError", {
  method: Schema.String,
  message: Schema.String
}) {}

/**
 * The few Telegram Bot API calls the server makes (base URL `TELEGRAM_API_URL`, so tests can receive
 * them), through `@resale/telegram`'s client on the product's one outbound HTTP policy.
 */
export class TelegramBotApi extends Context.Service<
  TelegramBotApi,
  {
    readonly sendMessage: (chatId: number, text: string) => Effect.Effect<void, TelegramBotApiError>
  }
>()("http/bot/TelegramBotApi") {
  static readonly layer = Layer.effect(
    TelegramBotApi,
    Effect.gen(function* () {
      const config = yield* HttpConfig
      const bot = yield* makeBotApi({ apiUrl: config.telegramApiUrl, token: config.botToken })
      // The token is part of the URL: messages carry the status and Telegram's description only.
      const call = (method: string, body: unknown) =>
        bot.call(method, body).pipe(
          Effect.mapError(() => new TelegramBotApiError({ method, message: "Bot API did not answer" })),
          Effect.flatMap(({ answer, status }) =>
            status < 300 && answer.ok !== false
              ? Effect.void
              : Effect.fail(
                  new TelegramBotApiError({
                    method,
                    message: `status ${status}: ${(answer.description ?? "").slice(0, 200)}`
                  })
                )
          )
        )
      return TelegramBotApi.of({
        sendMessage: (chatId, text) => call("sendMessage", { chat_id: chatId, text })
      })
    })
  ).pipe(Layer.provide(OutboundHttp))
}
