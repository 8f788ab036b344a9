import { Effect } from "effect"
import { createHash, createHmac } from "node:crypto"
import { request } from "undici"

/** A tiny HTTP client over undici for the tests: real requests to the loopback server. */
export interface Answer {
  readonly status: number
  readonly headers: Record<string, string | Array<string> | undefined>
  readonly text: string
  readonly json: any
}

export interface Call {
  readonly method?: string
  readonly headers?: Record<string, string>
  readonly form?: Record<string, string>
  readonly json?: unknown
  readonly body?: string | Uint8Array | FormData
  readonly cookie?: string
}

export const call = (base: string, path: string, options: Call = {}): Effect.Effect<Answer> =>
  Effect.promise(async () => {
    const headers: Record<string, string> = { ...options.headers }
    let body: string | Uint8Array | undefined
    if (options.form) {
      headers["content-type"] ??= "application/x-www-form-urlencoded"
      body = new URLSearchParams(options.form).toString()
    } else if (options.json !== undefined) {
      headers["content-type"] ??= "application/json"
      body = JSON.stringify(options.json)
    } else if (options.body instanceof FormData) {
      const response = new Response(options.body)
      headers["content-type"] = response.headers.get("content-type")!
      body = new Uint8Array(await response.arrayBuffer())
    } else if (options.body !== undefined) {
      body = options.body
    }
    if (options.cookie) headers["cookie"] = options.cookie
    const response = await request(`${base}${path}`, {
      method: (options.method ?? (body === undefined ? "GET" : "POST")) as "GET",
      headers,
      ...(body === undefined ? {} : { body })
    })
    const text = await response.body.text()
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      json = undefined
    }
    return { status: response.statusCode, headers: response.headers as Answer["headers"], text, json }
  })

/** Login Widget fields signed with `botToken` as Telegram does (see auth/TelegramLogin.ts). */
export const signedLogin = (botToken: string, fields: Record<string, string>): Record<string, string> => {
  const check = Object.keys(fields)
    .sort()
    .map((k) => `${k}=${fields[k]}`)
    .join("\n")
  const secret = createHash("sha256").update(botToken).digest()
  return { ...fields, hash: createHmac("sha256", secret).update(check).digest("hex") }
}

export const TEST_BOT_TOKEN = "123456:TEST-bot-token"
export const TEST_ADMIN_TOKEN = "test-admin-token"

/**
 * What a browser gets from the sign-in page: its login-state cookie (`name=value`) and the widget's
 * callback path (with the `state` bound to that cookie), to which Telegram appends the signed fields.
 */
export const loginPage = (base: string) =>
  Effect.gen(function* () {
    const page = yield* call(base, "/v2/", { headers: { accept: "text/html" } })
    const authUrl = /data-auth-url="([^"]+)"/.exec(page.text)?.[1]?.replaceAll("&amp;", "&")
    if (authUrl === undefined)
      return yield* Effect.die(`no sign-in widget on the home page: ${page.text.slice(0, 200)}`)
    const url = new URL(authUrl)
    return { cookie: cookieNamed(page, "resale_login_state"), callback: `${url.pathname}${url.search}` }
  })

/** The callback as Telegram calls it: the signed fields appended to the widget's URL. */
export const callbackPath = (callback: string, fields: Record<string, string>) =>
  `${callback}${callback.includes("?") ? "&" : "?"}${new URLSearchParams(fields)}`

// Each sign-in gets its own payload (a payload signs in once): a user signing in again gets an
// auth_date not used for them before (a few seconds back if need be), as a second widget login would.
const usedAuthDates = new Map<number, Set<number>>()
const freshAuthDate = (telegramId: number): string => {
  const used = usedAuthDates.get(telegramId) ?? new Set<number>()
  usedAuthDates.set(telegramId, used)
  let date = Math.floor(Date.now() / 1000)
  while (used.has(date)) date--
  used.add(date)
  return String(date)
}

/** Signs in through the Telegram callback; returns the session cookie (`name=value`). */
export const signIn = (base: string, telegramId: number, username: string) =>
  Effect.gen(function* () {
    const fields = signedLogin(TEST_BOT_TOKEN, {
      id: String(telegramId),
      first_name: username,
      username,
      auth_date: freshAuthDate(telegramId)
    })
    const { callback, cookie } = yield* loginPage(base)
    const answer = yield* call(base, callbackPath(callback, fields), { cookie })
    if (answer.status !== 303) return yield* Effect.die(`sign-in failed: ${answer.status} ${answer.text}`)
    return cookieNamed(answer, "resale_session")
  })

const setCookies = (answer: Answer): Array<string> => {
  const raw = answer.headers["set-cookie"]
  return raw === undefined ? [] : Array.isArray(raw) ? raw : [raw]
}

export const cookieOf = (answer: Answer): string => setCookies(answer)[0]!.split(";")[0]!

/** The `name=value` of the cookie `name` that `answer` sets. */
export const cookieNamed = (answer: Answer, name: string): string => {
  const found = setCookies(answer).find((c) => c.startsWith(`${name}=`))
  if (found === undefined) throw new Error(`no ${name} cookie in ${JSON.stringify(answer.headers["set-cookie"])}`)
  return found.split(";")[0]!
}

/** Operator session through POST /v2/admin/login. */
export const adminSignIn = (base: string) =>
  Effect.map(call(base, "/v2/admin/login", { form: { token: TEST_ADMIN_TOKEN } }), cookieOf)

export const PNG = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 1
])
