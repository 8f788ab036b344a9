import { resolveVapidKeys } from "@resale/push/VapidKeys.ts"
import { Effect, Layer, Option } from "effect"
import { HttpRouter, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { createHash } from "node:crypto"
import { readFileSync } from "node:fs"
import { HttpConfig } from "@resale/webkit/HttpConfig.ts"
import { isLocale, LOCALE_COOKIE } from "../i18n/Locale.ts"
import { json } from "../Answers.ts"

/**
 * What the browser loads besides pages, all served by this server (no CDN):
 *
 *   GET /v2/static/:file   app.js, app.css, icon.svg (immutable when asked with ?v=<version>)
 *   GET /v2/sw.js          the service worker (scope /v2/) that shows push notifications
 *   GET /v2/push/key       {"public_key": "<VAPID public key>" | null}
 *   GET /v2/lang?to=ru&back=/v2/dashboard   remembers the language in a cookie, then goes back
 */
export const ASSET_ROUTES = [
  { method: "GET", path: "/v2/static/:file" },
  { method: "GET", path: "/v2/sw.js" },
  { method: "GET", path: "/v2/push/key" },
  { method: "GET", path: "/v2/lang" }
] as const

const TYPES: Record<string, string> = {
  "app.js": "text/javascript; charset=utf-8",
  "app.css": "text/css; charset=utf-8",
  "icon.svg": "image/svg+xml",
  "sw.js": "text/javascript; charset=utf-8"
}

const FILES: Record<string, Uint8Array> = Object.fromEntries(
  Object.keys(TYPES).map((name) => [name, new Uint8Array(readFileSync(new URL(`../static/${name}`, import.meta.url)))])
)

/** Changes whenever any asset changes, so `?v=` URLs can be cached for a year. */
export const ASSET_VERSION = createHash("sha256")
  .update(
    Object.values(FILES)
      .map((bytes) => Buffer.from(bytes).toString("base64"))
      .join("\n")
  )
  .digest("hex")
  .slice(0, 12)

const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60

/** Only a path of this site may be the way back (no `//host`, no scheme). */
export const safeBack = (back: string | null): string =>
  back !== null && /^\/v2(\/|$|\?|#)/.test(back) && !back.includes("\\") && !back.startsWith("//") ? back : "/v2/"

const asset = (name: string, versioned: boolean) =>
  HttpServerResponse.uint8Array(FILES[name]!, {
    contentType: TYPES[name]!,
    headers: {
      "cache-control": versioned ? `public, max-age=${ONE_YEAR_SECONDS}, immutable` : "no-cache",
      "x-content-type-options": "nosniff",
      ...(name === "sw.js" ? { "service-worker-allowed": "/v2/" } : {})
    }
  })

export const AssetRoutes = Layer.effectDiscard(
  Effect.gen(function* () {
    const router = yield* HttpRouter.HttpRouter
    const config = yield* HttpConfig
    const configured = config.vapidPublicKey
    // Sandbox without keys: the pair the worker generates and keeps in the data directory. Looked up
    // when first asked (not at start, where it would race the worker writing the same file), then kept.
    let known: Option.Option<string> = configured
    const publicKey = Effect.suspend(() =>
      Option.isSome(known)
        ? Effect.succeed(known)
        : resolveVapidKeys({ configured: Option.none(), sandbox: config.sandbox, dataDir: config.dataDir }).pipe(
            Effect.map(Option.map((keys) => keys.publicKey)),
            Effect.tap((key) => Effect.sync(() => (known = key))),
            Effect.catchCause(() => Effect.succeedNone)
          )
    )

    yield* router.add("GET", "/v2/static/:file", (request) =>
      Effect.map(HttpRouter.params, (params) => {
        const name = params["file"] ?? ""
        // Own properties only: `constructor` or `toString` are not files.
        if (name === "sw.js" || !Object.hasOwn(FILES, name))
          return json({ detail: "Not Found", code: "not_found" }, 404)
        return asset(name, new URL(request.url, "http://localhost").searchParams.get("v") === ASSET_VERSION)
      })
    )
    yield* router.add("GET", "/v2/sw.js", asset("sw.js", false))
    yield* router.add(
      "GET",
      "/v2/push/key",
      Effect.map(publicKey, (key) => json({ public_key: Option.getOrNull(key) }))
    )
    yield* router.add("GET", "/v2/lang", (request: HttpServerRequest.HttpServerRequest) => {
      const query = new URL(request.url, "http://localhost").searchParams
      const to = query.get("to")
      const response = HttpServerResponse.redirect(safeBack(query.get("back")), { status: 303 })
      return Effect.succeed(
        isLocale(to)
          ? HttpServerResponse.setCookieUnsafe(response, LOCALE_COOKIE, to, {
              path: "/",
              sameSite: "lax",
              maxAge: `${ONE_YEAR_SECONDS} seconds`,
              secure: config.publicUrl.startsWith("https://")
            })
          : response
      )
    })
  })
)
