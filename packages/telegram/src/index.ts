/**
 * Telegram adapters: Bot API messages (the Notifier's bot channel) and the gift sender accounts
 * (mtcute user sessions in production, a simulator with a JSONL log in sandbox mode).
 */
export { type BotAnswer, BotApiUnreachable, type BotApiOptions, type BotReply, makeBotApi } from "./BotApi.ts"
export { makeTelegramBotSender } from "./TelegramBotSender.ts"
export { makeMtcuteGiftSender, MtcuteGiftSender } from "./MtcuteGiftSender.ts"
export { makeSimulatedGiftSender, SANDBOX_GIFTS, SimulatedGiftSender } from "./SimulatedGiftSender.ts"
