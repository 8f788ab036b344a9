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
