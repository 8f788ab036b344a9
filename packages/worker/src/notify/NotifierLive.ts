import { Notifier, NotifierError } from "@resale/core/ports/Notifier.ts"
import { Effect, Layer, Option } from "effect"
import { WorkerConfig } from "../WorkerConfig.ts"
import { makeTelegramBotSender } from "@resale/telegram/TelegramBotSender.ts"
import { resolveVapidKeys } from "@resale/push/VapidKeys.ts"
import { makeWebPushSender } from "@resale/push/WebPushSender.ts"

const notConfigured = (channel: "push" | "bot", what: string) =>
  Effect.fail(new NotifierError({ channel, reason: "NotConfigured", message: `${what} not configured` }))

/**
 * The Notifier port from the worker's settings: web push when VAPID keys are configured (or
 * generated in sandbox mode), bot messages when TELEGRAM_BOT_TOKEN is set. A channel without
 * credentials fails `NotConfigured`, which the notifications job skips.
 */
export const NotifierLive = Layer.effect(
  Notifier,
  Effect.gen(function*() {
    const settings = yield* WorkerConfig
    const keys = yield* resolveVapidKeys({
      configured: settings.vapid,
      sandbox: settings.sandbox,
      dataDir: settings.dataDir
    })
    const push = Option.match(keys, {
      onNone: () => () => notConfigured("push", "VAPID keys"),
      onSome: (keys) => makeWebPushSender({ keys, subject: settings.vapidSubject })
    })
    const botMessage = Option.match(settings.botToken, {
      onNone: () => () => notConfigured("bot", "TELEGRAM_BOT_TOKEN"),
      onSome: (token) => makeTelegramBotSender({ apiUrl: settings.telegramApiUrl, token })
    })
    return Notifier.of({ push, botMessage })
  })
)
