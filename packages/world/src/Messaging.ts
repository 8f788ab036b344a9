/**
 * The Telegram and push side of the outside world, from settings: the GiftSender (simulated in
 * sandbox mode, mtcute accounts when configured, else one that answers Unavailable) and the Notifier
 * (web push with the VAPID pair, Bot API messages with the bot token; a channel without credentials
 * answers NotConfigured, which the notifications job skips).
 */
import type { TelegramAccounts } from "@resale/config"
import { GiftPictures } from "@resale/core/ports/GiftPictures.ts"
import { GiftSender, GiftSenderError } from "@resale/core/ports/GiftSender.ts"
import { type Notice, Notifier, NotifierError, type PushTarget } from "@resale/core/ports/Notifier.ts"
import { isSandboxInbox, PushPolicy } from "@resale/core/push/PushEndpointRules.ts"
import { OutboundHttp, outboundHttp } from "@resale/outbound"
import { publicOnlyLookup } from "@resale/push/AddressGuard.ts"
import { makeWebPushSender } from "@resale/push/WebPushSender.ts"
import { resolveVapidKeys } from "@resale/push/VapidKeys.ts"
import { SimulatedGiftSender } from "@resale/telegram/SimulatedGiftSender.ts"
import { makeBotGiftPictures } from "@resale/telegram/BotGiftPictures.ts"
import { makeTelegramBotSender } from "@resale/telegram/TelegramBotSender.ts"
import { Effect, Layer, Option, type Redacted, Scope } from "effect"
import { join } from "node:path"

export interface GiftSenderOptions {
  readonly sandbox: boolean
  readonly dataDir: string
  readonly giftSenders: ReadonlyArray<string>
  readonly telegramAccounts: Option.Option<TelegramAccounts>
}

const unconfigured = (accounts: ReadonlyArray<string>) => {
  const error = new GiftSenderError({
    reason: "Unavailable",
    message: "no gift sender account is configured (TELEGRAM_API_ID)"
  })
  return GiftSender.of({
    accounts,
    catalogue: Effect.fail(error),
    send: () => Effect.fail(error),
    findSent: () => Effect.fail(error)
  })
}

/** Gift orders without a sender wait with backoff and are refunded after the attempt limit. */
export const giftSenderLayer = (options: GiftSenderOptions) => {
  if (options.sandbox) {
    return SimulatedGiftSender.layer({
      accounts: options.giftSenders,
      logFile: join(options.dataDir, "sandbox-gifts.jsonl"),
      magic: true
    })
  }
  return Option.match(options.telegramAccounts, {
    // mtcute (some 600 modules) is loaded only when Telegram accounts are configured.
    onSome: (accounts) =>
      Layer.unwrap(
        Effect.promise(() => import("@resale/telegram/MtcuteGiftSender.ts")).pipe(
          Effect.map(({ MtcuteGiftSender }) => MtcuteGiftSender.layerWith(accounts))
        )
      ),
    onNone: () =>
      Layer.effect(
        GiftSender,
        Effect.as(
          Effect.logWarning("TELEGRAM_API_ID is not set: gift orders cannot be sent"),
          unconfigured(options.giftSenders)
        )
      )
  })
}

export interface GiftPicturesOptions {
  readonly sandbox: boolean
  readonly botToken: Option.Option<Redacted.Redacted<string>>
  readonly telegramApiUrl: string
}

/**
 * Gift pictures from the Bot API in production with a bot token (mtcute's catalogue has none);
 * sandbox mode keeps the simulator's drawn pictures, and without a token the page shows a gift box.
 */
export const giftPicturesLayer = (options: GiftPicturesOptions) =>
  options.sandbox || Option.isNone(options.botToken)
    ? Layer.empty
    : Layer.effect(
        GiftPictures,
        makeBotGiftPictures({ apiUrl: options.telegramApiUrl, token: options.botToken.value })
      ).pipe(Layer.provide(OutboundHttp))

export interface NotifierOptions {
  readonly sandbox: boolean
  readonly dataDir: string
  readonly vapid: Option.Option<{ readonly publicKey: string; readonly privateKey: Redacted.Redacted<string> }>
  readonly vapidSubject: string
  readonly botToken: Option.Option<Redacted.Redacted<string>>
  readonly telegramApiUrl: string
}

const notConfigured = (channel: "push" | "bot", what: string) =>
  Effect.fail(new NotifierError({ channel, reason: "NotConfigured", message: `${what} not configured` }))

export const notifierLayer = (options: NotifierOptions) =>
  Layer.effect(
    Notifier,
    Effect.gen(function* () {
      const keys = yield* resolveVapidKeys({
        configured: options.vapid,
        sandbox: options.sandbox,
        dataDir: options.dataDir
      })
      // Its own client: every connection's addresses are checked (public only) unless a test allows local delivery.
      const policy = yield* PushPolicy
      const pushHttp = policy.unsafeLocalDelivery === true ? OutboundHttp : outboundHttp({ lookup: publicOnlyLookup })
      // Built in the notifier's own scope (the agent lives as long as the notifier) and given to each
      // send: the client takes its undici dispatcher from the context it runs in.
      // With a memo map of its own: the undici client layer is shared by default, and a shared one would
      // come with whichever dispatcher was built first (the unguarded one of the other clients).
      const pushClient = yield* Layer.buildWithMemoMap(pushHttp, Layer.makeMemoMapUnsafe(), yield* Scope.Scope)
      const sent = Option.isSome(keys)
        ? yield* Effect.map(
            makeWebPushSender({ keys: keys.value, subject: options.vapidSubject, policy }).pipe(
              Effect.provide(pushClient)
            ),
            (send) => (target: PushTarget, notice: Notice) => send(target, notice).pipe(Effect.provide(pushClient))
          )
        : () => notConfigured("push", "VAPID keys")
      // Sandbox mode: the server's own push receiver (loopback, plain http) gets real web pushes too.
      const inbox =
        Option.isSome(keys) && policy.sandboxInbox !== undefined
          ? yield* Effect.map(
              makeWebPushSender({ keys: keys.value, subject: options.vapidSubject }),
              (send) => (target: PushTarget, notice: Notice) => send(target, notice)
            )
          : undefined
      const push = (target: PushTarget, notice: Notice) =>
        inbox !== undefined && isSandboxInbox(target.endpoint, policy) ? inbox(target, notice) : sent(target, notice)
      const botMessage = Option.isSome(options.botToken)
        ? yield* makeTelegramBotSender({ apiUrl: options.telegramApiUrl, token: options.botToken.value })
        : () => notConfigured("bot", "TELEGRAM_BOT_TOKEN")
      return Notifier.of({ push, botMessage })
    })
  ).pipe(Layer.provide(OutboundHttp))
