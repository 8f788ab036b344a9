import { ByteSize, Effect } from "effect"
import { HttpIncomingMessage, type HttpServerRequest } from "effect/http"
import { CSRF_FIELD } from "./WebCookies.ts"

/** A form a browser posted: read once here, its CSRF token and idempotency key taken out. */
export interface BrowserForm {
  readonly csrf: string | undefined
  readonly idempotencyKey: string | undefined
  /** The text fields as posted (files left out), to put back into the form when it fails. */
  readonly fields: Readonly<Record<string, string>>
  /** The files posted (a receipt), by field name; an empty file input counts as none. */
  readonly files: ReadonlyMap<string, File>
}

export const isFormPost = (request: HttpServerRequest.HttpServerRequest): boolean => {
  if (request.method !== "POST") return false
  const type = (request.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase()
  return type === "application/x-www-form-urlencoded" || type === "multipart/form-data"
}

const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined)

/**
 * `maxBytes`: a receipt plus the other fields (`ReceiptLimits.body`); anything larger is refused
 * before it is buffered.
 */
export const readBrowserForm = (request: HttpServerRequest.HttpServerRequest, maxBytes: number) =>
  Effect.gen(function* () {
    // The server's own limit for the route (server/BodyLimit.ts) stays in force when it is smaller.
    const outer = yield* HttpIncomingMessage.MaxBodySize
    const limit = outer === undefined ? ByteSize.bytes(maxBytes) : ByteSize.min(outer, ByteSize.bytes(maxBytes))
    const bytes = yield* request.arrayBuffer.pipe(Effect.provideService(HttpIncomingMessage.MaxBodySize, limit))
    const headers = new Headers({ "content-type": request.headers["content-type"] ?? "" })
    const parsed = yield* Effect.promise(() =>
      new Request("http://localhost/", { method: "POST", headers, body: bytes }).formData().catch(() => undefined)
    )
    const csrf = text(parsed?.get(CSRF_FIELD) ?? null)
    const posted = text(parsed?.get("idempotency_key") ?? null)
    // As the routes' `Idempotency-Key` header: a malformed key is none.
    const idempotencyKey = posted !== undefined && /^[A-Za-z0-9-]{8,100}$/.test(posted) ? posted : undefined
    const fields: Record<string, string> = {}
    const files = new Map<string, File>()
    parsed?.forEach((value, name) => {
      if (typeof value === "string") {
        if (!(name in fields)) fields[name] = value
      } else if (!files.has(name) && (value.name !== "" || value.size > 0)) files.set(name, value)
    })
    return {
      csrf,
      idempotencyKey,
      fields,
      files
    } satisfies BrowserForm
  })
