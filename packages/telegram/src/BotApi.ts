/**
 * The Telegram Bot API over effect's `HttpClient` (the caller provides the client and with it the
 * product's one retry policy): `POST {apiUrl}/bot{token}/{method}` with a JSON body, the answer
 * decoded with a schema. The token is part of the URL, so no failure carries the URL or a raw error,
 * and spans show it as `bot<redacted>` (`botClient`).
 */
import { withRedactedPathSpans } from "@resale/outbound/RedactedSpans.ts"
import { Effect, Redacted, Schema } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"

export interface BotApiOptions {
  /** e.g. https://api.telegram.org (TELEGRAM_API_URL) */
  readonly apiUrl: string
  readonly token: Redacted.Redacted<string>
}

/** What the Bot API says besides the status; a proxy's HTML error page decodes as nothing. */
const BotAnswer = Schema.Struct({
  ok: Schema.optional(Schema.Boolean),
  description: Schema.optional(Schema.String)
})
export type BotAnswer = typeof BotAnswer.Type

export interface BotReply {
  readonly status: number
  readonly answer: BotAnswer
}

/** No answer at all (after the retries): the request may or may not have reached Telegram. */
export class BotApiUnreachable extends Schema.TaggedError<BotApiUnreachable>()("BotApiUnreachable", {
  method: Schema.String
}) {}

const decodeAnswer = Schema.decodeUnknownEffect(BotAnswer)

/** `/bot<token>/method` and `/file/bot<token>/path` with the token as `<redacted>`. */
export const botTokenRedacted = (path: string): string => path.replace(/\/bot[^/]*/, "/bot<redacted>")

/** The `HttpClient` in context, its spans without the token the Bot API's paths carry. */
export const botClient = Effect.map(Effect.service(HttpClient.HttpClient), (client) =>
  withRedactedPathSpans(client, botTokenRedacted)
)

export const makeBotApi = (options: BotApiOptions) =>
  Effect.gen(function* () {
    const client = yield* botClient
    const base = options.apiUrl.replace(/\/+$/, "")
    const call = Effect.fn("BotApi.call")(function* (method: string, body: unknown) {
      const request = HttpClientRequest.post(`${base}/bot${Redacted.value(options.token)}/${method}`).pipe(
        HttpClientRequest.bodyJsonUnsafe(body)
      )
      const response = yield* client.execute(request).pipe(Effect.mapError(() => new BotApiUnreachable({ method })))
      const answer = yield* response.json.pipe(
        Effect.flatMap(decodeAnswer),
        Effect.orElseSucceed((): BotAnswer => ({}))
      )
      return { status: response.status, answer } satisfies BotReply
    })
    return { call }
  })
