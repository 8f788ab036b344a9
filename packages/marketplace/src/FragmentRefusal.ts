/**
 * An HTTP 403 from fragment.com is not how Fragment reports a session problem: public clients see
 * session problems as HTTP 200 with `{"error":"Access denied"}` or a page without an api hash. A 403
 * comes from an anti-bot edge in front of the site (newer clients moved to browser-like TLS "to
 * bypass anti-bot protection"). So a 403 is reported as `Blocked`, with its own log line, and the
 * operator can route around it with FRAGMENT_PROXY; only a 403 whose body is Fragment's own JSON
 * error keeps that error's meaning.
 */
import { Effect, Option, Schema } from "effect"
import { MarketplaceError } from "@resale/core/ports/Marketplace.ts"
import { ErrorAnswer } from "./FragmentAnswers.ts"
import { fromFragmentError } from "./FragmentErrors.ts"

interface Answer {
  readonly status: number
  readonly text: string
  readonly headers: Readonly<Record<string, string | undefined>>
}

const decodeError = Schema.decodeUnknownOption(ErrorAnswer)

/** Fragment's own error text, if the body is its JSON error (not an edge's HTML page). */
const fragmentError = (text: string): string | undefined => Option.getOrUndefined(decodeError(text))?.error

/** Which edge refused, for the log line (names only, never a body). */
const edgeOf = (headers: Answer["headers"], text: string): string => {
  const name = headers["server"] ?? ""
  if (headers["cf-ray"] !== undefined || /cloudflare/i.test(name) || /cf-chl|just a moment/i.test(text))
    return "cloudflare"
  return name.length > 0 ? name.slice(0, 40) : "unknown"
}

/**
 * The failure for a 403 answer (`what`: the page or method), or undefined for any other status.
 * The returned function logs and fails, given the session's label.
 */
export const refusalOf = (answer: Answer, what: string) => {
  if (answer.status !== 403) return undefined
  const own = fragmentError(answer.text)
  if (own !== undefined) return (_session: string) => Effect.fail(fromFragmentError(what, own))
  const edge = edgeOf(answer.headers, answer.text)
  return (session: string) =>
    Effect.logWarning(
      "Fragment blocked the request (HTTP 403, not a session problem); route it through FRAGMENT_PROXY"
    ).pipe(
      Effect.annotateLogs({ session, call: what, edge }),
      Effect.andThen(
        Effect.fail(
          new MarketplaceError({
            reason: "Blocked",
            message: `Fragment ${what} was blocked before the session was checked (HTTP 403 from ${edge}); not a session problem`
          })
        )
      )
    )
}
