import type { Command } from "commander"
import { runCommand } from "../Runner.ts"
import type { CommonOptions } from "../Runner.ts"
import { withJson } from "./Common.ts"

const programs = () => import("./BotPrograms.ts")

export const registerBot = (program: Command): void => {
  const bot = program.command("bot").description("the Telegram bot")

  withJson(
    bot
      .command("set-webhook")
      .description(
        "register PUBLIC_URL/v2/bot/webhook/<path secret> with Telegram (setWebhook), the header secret as its " +
          "secret_token; run again after changing SESSION_SECRET, TELEGRAM_WEBHOOK_SECRET or TELEGRAM_WEBHOOK_HEADER_SECRET"
      )
  ).action((options: CommonOptions) => programs().then((p) => runCommand(() => p.BotLayer, p.setWebhook, options)))
}
