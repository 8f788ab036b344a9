import { Data } from "effect"
import type { HttpServerError } from "effect/http"

/**
 * The server could not listen where its settings say, said so that an operator can act on it. Why:
 * effect's `ServeError` has no message of its own, so the process stopped on "server stopped:
 * ServeError", which names neither the address nor what was wrong with it.
 */
export class ListenFailed extends Data.TaggedError("ListenFailed")<{ readonly message: string }> {}

// What to do about the usual reasons, by the system's error code.
const REASONS: Readonly<Record<string, string>> = {
  EADDRINUSE: "another process already listens there: stop it, or set PORT to a free port",
  EACCES: "not allowed: a port below 1024 needs privileges; set PORT to 1024 or above",
  EADDRNOTAVAIL: "this machine has no such address: set HOST to one of its own (127.0.0.1, 0.0.0.0)"
}

/** `error`, the failure to listen on `host:port`, as a `ListenFailed`. */
export const listenFailed = (
  error: HttpServerError.ServeError,
  at: { readonly host: string; readonly port: number }
): ListenFailed => {
  const cause = error.cause as { readonly code?: unknown; readonly message?: unknown } | undefined
  const code = typeof cause?.code === "string" ? cause.code : undefined
  const reason =
    code !== undefined && REASONS[code] !== undefined
      ? `${REASONS[code]} (${code})`
      : typeof cause?.message === "string" && cause.message !== ""
        ? cause.message
        : String(cause)
  return new ListenFailed({ message: `cannot listen on ${at.host}:${at.port}: ${reason}` })
}
