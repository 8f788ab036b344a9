/**
 * Client spans that never show a secret carried in a URL's path (the Bot API's `/bot<token>/...`).
 * Effect's own client span records `url.full` and `url.path` as sent, redacting only userinfo and
 * listed query parameters, with no hook for the path; so for such a client it is turned off
 * (`HttpClient.TracerDisabledWhen`, which also sends no trace headers) and this span stands in: the
 * same kind, method, host and status, with the path as `redactPath` gives it and no query.
 */
import { Effect } from "effect"
import { HttpClient } from "effect/http"

const always = () => true

const DEFAULT_PORTS: Record<string, number> = { "http:": 80, "https:": 443 }

/** The URL's attributes with its path redacted, or only the method when it does not parse. */
const attributesOf = (method: string, url: string, redactPath: (path: string) => string) => {
  const parsed = URL.canParse(url) ? new URL(url) : undefined
  if (parsed === undefined) return { "http.request.method": method }
  const path = redactPath(parsed.pathname)
  return {
    "http.request.method": method,
    "url.full": `${parsed.protocol}//${parsed.host}${path}`,
    "url.path": path,
    "url.scheme": parsed.protocol.slice(0, -1),
    "server.address": parsed.hostname,
    "server.port": parsed.port === "" ? DEFAULT_PORTS[parsed.protocol] : Number(parsed.port)
  }
}

/** `client` traced with `redactPath(pathname)` in place of every request's path. */
export const withRedactedPathSpans = (
  client: HttpClient.HttpClient,
  redactPath: (path: string) => string
): HttpClient.HttpClient =>
  HttpClient.transform(client, (response, request) =>
    response.pipe(
      Effect.tap((answer) => Effect.annotateCurrentSpan("http.response.status_code", answer.status)),
      Effect.provideService(HttpClient.TracerDisabledWhen, always),
      Effect.withSpan(request.method, {
        kind: "client",
        attributes: attributesOf(request.method, request.url, redactPath)
      })
    )
  )

/** For `withRedactedPathSpans`: the path as `/<redacted>` (nothing of it shown). */
export const wholePathRedacted = (): string => "/<redacted>"
