// `bot set-webhook`, loaded only when it runs.
import { AppConfig } from "@resale/config"
import { OutboundHttp } from "@resale/outbound"
import { makeBotApi } from "@resale/telegram/BotApi.ts"
import { Effect, Layer, Option, Redacted } from "effect"
import { CliCommandError } from "../CliErrors.ts"
import { output } from "../Output.ts"

export const BotLayer = Promise.resolve(Layer.merge(AppConfig.layer("cli"), OutboundHttp))

/**
 * Telegram's `setWebhook` with the server's webhook: the path secret in the URL and the header
 * secret, another value, as `secret_token` (Telegram sends it back in X-Telegram-Bot-Api-Secret-Token).
 * Neither secret is printed.
 */
export const setWebhook = Effect.gen(function* () {
  const app = yield* AppConfig
  if (Option.isNone(app.botToken)) {
    return yield* new CliCommandError({
      reason: "Unavailable",
      message: "TELEGRAM_BOT_TOKEN is not set: there is no bot to register a webhook for"
    })
  }
  const bot = yield* makeBotApi({ apiUrl: app.telegramApiUrl, token: app.botToken.value })
  const shown = `${app.publicUrl}/v2/bot/webhook/<path secret>`
  const reply = yield* bot
    .call("setWebhook", {
      url: `${app.publicUrl}/v2/bot/webhook/${Redacted.value(app.webhookSecret)}`,
      secret_token: Redacted.value(app.webhookHeaderSecret)
    })
    .pipe(
      Effect.mapError(
        () => new CliCommandError({ reason: "Unavailable", message: "the Bot API did not answer setWebhook" })
      )
    )
  if (reply.status >= 300 || reply.answer.ok !== true) {
    return yield* new CliCommandError({
      reason: "Invalid",
      message: `Telegram refused setWebhook (status ${reply.status}): ${(reply.answer.description ?? "").slice(0, 200)}`
    })
  }
  return output({ ok: true, url: shown }, `Webhook set: ${shown}, with the header secret as its secret_token.`)
})
