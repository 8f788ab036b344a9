/** A plain HTTP client for the direct surface: JSON bodies on GET as well as POST, as its clients send them. */
import { Effect } from "effect"
import { request } from "undici"
import type { DirectEnv } from "./DirectTestServer.ts"

export interface Answer {
  readonly status: number
  readonly headers: Record<string, string | Array<string> | undefined>
  readonly text: string
  readonly body: Record<string, unknown>
}

export const call = (
  env: DirectEnv,
  method: "GET" | "POST" | "PUT",
  path: string,
  body?: unknown,
  headers: Record<string, string> = {}
) =>
  Effect.promise(async (): Promise<Answer> => {
    const payload = body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body)
    const res = await request(`${env.url}${path}`, {
      method,
      headers: { ...(payload === undefined ? {} : { "content-type": "application/json" }), ...headers },
      ...(payload === undefined ? {} : { body: payload })
    })
    const text = await res.body.text()
    let parsed: Record<string, unknown> = {}
    try {
      parsed = JSON.parse(text) as Record<string, unknown>
    } catch {
      // not JSON: the tests look at `text`
    }
    return { status: res.statusCode, headers: res.headers as Answer["headers"], text, body: parsed }
  })

export const post = (env: DirectEnv, path: string, body: unknown) => call(env, "POST", path, body)
export const get = (env: DirectEnv, path: string, body?: unknown) => call(env, "GET", path, body)

/** A coded error answer of spec §7: status, the flat body with the request's id, and a message that never repeats `secret`. */
export const assertFailure = (res: Answer, status: number, code: string, secret?: string) => {
  if (res.status !== status || res.body["code"] !== code) {
    throw new Error(`expected ${status} ${code}, got ${res.status} ${res.text}`)
  }
  if (res.body["ok"] !== false || typeof res.body["message"] !== "string" || res.body["message"] === "") {
    throw new Error(`not a coded error body: ${res.text}`)
  }
  if (res.body["request_id"] !== res.headers["x-request-id"]) {
    throw new Error(`request_id is not the X-Request-Id header: ${res.text}`)
  }
  if (secret !== undefined && res.text.includes(secret)) throw new Error("the answer repeats the phrase")
  if (
    secret !== undefined &&
    secret.split(" ").length > 1 &&
    res.text.includes(secret.split(" ").slice(0, 3).join(" "))
  ) {
    throw new Error("the answer repeats words of the phrase")
  }
}
