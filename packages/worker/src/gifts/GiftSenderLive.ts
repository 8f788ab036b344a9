import { GiftSender, GiftSenderError } from "@resale/core/ports/GiftSender.ts"
import { Config, Effect, Layer, Option } from "effect"
import { join } from "node:path"
import { WorkerConfig } from "../WorkerConfig.ts"
import { MtcuteGiftSender } from "@resale/telegram/MtcuteGiftSender.ts"
import { SimulatedGiftSender } from "@resale/telegram/SimulatedGiftSender.ts"

const unconfigured = (accounts: ReadonlyArray<string>) => {
  const error = new GiftSenderError({ reason: "Unavailable", message: "no gift sender account is configured (TELEGRAM_API_ID)" })
  return GiftSender.of({
    accounts,
    catalogue: Effect.fail(error),
    send: () => Effect.fail(error),
    findSent: () => Effect.fail(error)
  })
}

/**
 * The GiftSender from the worker's settings: the simulator in sandbox mode (its log under
 * DATA_DIR), mtcute user accounts when TELEGRAM_API_ID is set, otherwise a sender that answers
 * `Unavailable` (gift orders wait with backoff and are refunded after the attempt limit).
 */
export const GiftSenderLive = Layer.unwrap(Effect.gen(function*() {
  const settings = yield* WorkerConfig
  if (settings.sandbox) {
    return SimulatedGiftSender.layer({
      accounts: settings.giftSenders,
      logFile: join(settings.dataDir, "sandbox-gifts.jsonl")
    })
  }
  const apiId = yield* Config.option(Config.Int("TELEGRAM_API_ID"))
  if (Option.isSome(apiId)) return MtcuteGiftSender.layerFromConfig(settings.giftSenders)
  yield* Effect.logWarning("TELEGRAM_API_ID is not set: gift orders cannot be sent")
  return Layer.succeed(GiftSender)(unconfigured(settings.giftSenders))
}))
