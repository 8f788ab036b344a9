import { NotifierError } from "@resale/core/ports/Notifier.ts"
import { Effect, Redacted } from "effect"
import { request } from "undici"

export interface BotApiOptions {
  /** e.g. https://api.telegram.org (TELEGRAM_API_URL) */
  readonly apiUrl: string
  readonly token: Redacted.Redacted<string>
  readonly timeoutMs?: number
}

const failure = (reason: NotifierError["reason"], message: string) =>
  new NotifierError({ channel: "bot", reason, message })

interface BotAnswer {
  readonly ok?: boolean
  readonly description?: string
  readonly parameters?: { readonly retry_after?: number }
}

const parse = (text: string): BotAnswer => {
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === "object" && value !== null ? value as BotAnswer : {}
  } catch {
    // not JSON (a proxy's error page): judged by the status alone
    return {}
  }
}

/**
 * Bot API `sendMessage` over undici. 403 (bot blocked, user deactivated) and "chat not found" ->
 * Gone (unlink the chat); 429/5xx/network -> Unavailable; other 4xx -> Rejected. The token is part
 * of the URL, so no error message ever carries the URL or a raw error.
 */
export const makeTelegramBotSender = (options: BotApiOptions) =>
  Effect.fn("TelegramBot.sendMessage")(function*(chatId: number, text: string) {
    const url = `${options.apiUrl}/bot${Redacted.value(options.token)}/sendMessage`
    const { answer, status } = yield* Effect.tryPromise({
      try: async (signal) => {
        const response = await request(url, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ chat_id: chatId, text, link_preview_options: { is_disabled: true } }),
          signal,
          headersTimeout: options.timeoutMs ?? 10_000,
          bodyTimeout: options.timeoutMs ?? 10_000
        })
        return { status: response.statusCode, answer: parse(await response.body.text()) }
      },
      catch: () => failure("Unavailable", "Bot API did not answer")
    })
    if (status >= 200 && status < 300 && answer.ok !== false) return
    const description = (answer.description ?? "").slice(0, 200)
    const what = `Bot API answered ${status}${description === "" ? "" : `: ${description}`}`
    if (status === 403 || /chat not found/i.test(description)) return yield* failure("Gone", what)
    if (status === 429 || status >= 500) return yield* failure("Unavailable", what)
    return yield* failure("Rejected", what)
  })
