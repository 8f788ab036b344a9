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
    let json: unknown = undefined
    try {
      json = JSON.parse(text)
    } catch {
      json = undefined
    }
    return { status: response.statusCode, headers: response.headers as Answer["headers"], text, json }
  })

/** Login Widget fields signed with `botToken` as Telegram does (see auth/TelegramLogin.ts). */
export const signedLogin = (botToken: string, fields: Record<string, string>): Record<string, string> => {
  const check = Object.keys(fields).sort().map((k) => `${k}=${fields[k]}`).join("\n")
  const secret = createHash("sha256").update(botToken).digest()
  return { ...fields, hash: createHmac("sha256", secret).update(check).digest("hex") }
}

export const TEST_BOT_TOKEN = "123456:TEST-bot-token"
export const TEST_ADMIN_TOKEN = "test-admin-token"

/** Signs in through the Telegram callback; returns the session cookie (`name=value`). */
export const signIn = (base: string, telegramId: number, username: string) =>
  Effect.gen(function*() {
    const fields = signedLogin(TEST_BOT_TOKEN, {
      id: String(telegramId),
      first_name: username,
      username,
      auth_date: String(Math.floor(Date.now() / 1000))
    })
    const answer = yield* call(base, `/v2/auth/messenger/callback?${new URLSearchParams(fields)}`)
    if (answer.status !== 303) return yield* Effect.die(`sign-in failed: ${answer.status} ${answer.text}`)
    return cookieOf(answer)
  })

export const cookieOf = (answer: Answer): string => {
  const raw = answer.headers["set-cookie"]
  const first = Array.isArray(raw) ? raw[0]! : raw!
  return first.split(";")[0]!
}

/** Operator session through POST /v2/admin/login. */
export const adminSignIn = (base: string) =>
  Effect.map(call(base, "/v2/admin/login", { form: { token: TEST_ADMIN_TOKEN } }), cookieOf)

export const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 1])
