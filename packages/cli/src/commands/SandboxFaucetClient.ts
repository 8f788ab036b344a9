/**
 * `resale sandbox fund` through a running server: the server owns the sandbox chain in memory (and
 * writes it to DATA_DIR after every change), so the funding must go through its faucet endpoint
 * (`POST /v2/api/admin/sandbox/fund`, admin token from `ADMIN_TOKEN`) rather than into the state file.
 */
import { readSettings } from "@resale/config"
import { Effect, Option, Redacted } from "effect"
import { CliCommandError } from "../CliErrors.ts"

/** What the faucet answered: the normalized address, the amount sent and the new balance, as TON text. */
export interface Funded {
  readonly address: string
  readonly funded: string
  readonly balance: string
  readonly network: string
}

const FAUCET_PATH = "/v2/api/admin/sandbox/fund"

const answersHealth = (base: string) =>
  Effect.promise(async () => {
    try {
      // Generous: a busy server answering late must not be taken for none (the CLI would then fund a
      // private copy of the chain the server owns).
      const response = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(5000) })
      const body = (await response.json().catch(() => ({}))) as { status?: unknown }
      return typeof body.status === "string"
    } catch {
      return false
    }
  })

/** A resale server that answers: its base URL, and how to name it in messages. */
export interface RunningServer {
  readonly base: string
  readonly where: string
}

/** The resale server that answers, if any: at `PUBLIC_URL`, then on `127.0.0.1:PORT` (settings read as the server reads them). */
export const runningServer = Effect.gen(function* () {
  const { port, publicUrl } = yield* readSettings("cli")
  const local = `http://127.0.0.1:${port}`
  const base = publicUrl.trim().replace(/\/+$/, "")
  const candidates: Array<RunningServer> = [
    ...(base === local ? [] : [{ base, where: `at ${base}` }]),
    { base: local, where: `on port ${port}` }
  ]
  for (const candidate of candidates) {
    if (yield* answersHealth(candidate.base)) return Option.some(candidate)
  }
  return Option.none<RunningServer>()
})

const unavailable = (message: string) => new CliCommandError({ reason: "Unavailable", message })

type Answer = { readonly status: number; readonly body: Record<string, unknown> }

const post = (url: string, token: string, body: unknown) =>
  Effect.tryPromise({
    try: async (): Promise<Answer> => {
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", "x-admin-token": token },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(60_000)
      })
      const parsed = (await response.json().catch(() => ({}))) as unknown
      return {
        status: response.status,
        body: typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : {}
      }
    },
    catch: (error) => unavailable(`the server at ${url} did not answer the funding request: ${String(error)}`)
  })

/** The reasons of a 422 answer, one sentence. */
const reasons = (body: Record<string, unknown>): string => {
  const detail = body["detail"]
  if (!Array.isArray(detail)) return String(detail ?? "invalid request")
  return detail
    .map(
      (d: { loc?: ReadonlyArray<unknown>; msg?: unknown }) =>
        `${(d.loc ?? []).slice(1).join(".") || "body"}: ${String(d.msg)}`
    )
    .join("; ")
}

/** Funds `address` with `amount` TON (decimal text, sent as text so it stays exact) through the running server. */
export const fundThroughServer = ({ base, where }: RunningServer, address: string, amount: string) =>
  Effect.gen(function* () {
    // A token generated for this command (ADMIN_TOKEN unset) is not the server's.
    const app = yield* readSettings("cli")
    const token = app.adminTokenGenerated ? Option.none() : Option.some(app.adminToken)
    if (Option.isNone(token)) {
      return yield* unavailable(
        `a resale server answers ${where} and owns the sandbox chain; set ADMIN_TOKEN to the admin token it printed at start, ` +
          "so the funding goes through its faucet"
      )
    }
    const answer = yield* post(`${base}${FAUCET_PATH}`, Redacted.value(token.value), { address, amount_ton: amount })
    switch (answer.status) {
      case 200:
        return {
          address: String(answer.body["address"]),
          funded: String(answer.body["funded_ton"]),
          balance: String(answer.body["balance_ton"]),
          network: String(answer.body["network"])
        } satisfies Funded
      case 401:
        return yield* unavailable(
          `the server at ${base} refused the admin token: ADMIN_TOKEN is not the token it runs with`
        )
      case 404:
        return yield* unavailable(
          `the server at ${base} is not in sandbox mode, so it has no faucet: on mainnet and testnet nobody can make TON`
        )
      case 422:
        return yield* new CliCommandError({
          reason: "Invalid",
          message: `the server refused the request: ${reasons(answer.body)}`
        })
      default:
        return yield* unavailable(
          `the server at ${base} could not fund the wallet (HTTP ${answer.status}): ${String(answer.body["detail"] ?? "")}`
        )
    }
  })
