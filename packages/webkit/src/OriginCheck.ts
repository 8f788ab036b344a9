/**
 * Cookie-authenticated POSTs must come from our own pages: an `Origin` (or, without one, a
 * `Referer`) naming another site is refused. Requests with neither (curl, old clients) pass,
 * since SameSite=Lax already keeps the cookie off cross-site POSTs from browsers.
 */
export const isSameOrigin = (
  headers: Readonly<Record<string, string | undefined>>,
  allowedOrigins: ReadonlyArray<string>
): boolean => {
  const origin = headers["origin"]
  const source = origin && origin !== "null" ? origin : headers["referer"]
  if (origin === "null") return false
  if (!source) return true
  let parsed: URL
  try {
    parsed = new URL(source)
  } catch {
    return false
  }
  const host = headers["host"]
  if (host !== undefined && parsed.host === host) return true
  return allowedOrigins.some((allowed) => {
    try {
      return new URL(allowed).origin === parsed.origin
    } catch {
      return false
    }
  })
}
