/**
 * A local fragment.com: a real loopback HTTP server speaking Fragment's web wire format
 * (purchase pages with the api hash, form-encoded `/api?hash=` methods, JSON answers).
 * Used by tests (with `control` switches and fault injection) and, in sandbox mode, as the
 * service's marketplace: there it reports delivery only once `paymentSeen(ref, ...)` says the
 * payment reached `walletAddress`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { Address } from "@ton/core"
import { Effect, Redacted } from "effect"
import type { FragmentOptions } from "../FragmentConfig.ts"
import { type Fields, handleApi, type PaymentSeen, rawRequest } from "./SimulatorApi.ts"
import { makeControl, type SimulatorControl } from "./SimulatorControl.ts"
import { isPage, renderPage } from "./SimulatorPages.ts"
import type { SimulatorPrices } from "./SimulatorPricing.ts"
import { type MagicOptions, SimulatorMagic } from "./SimulatorMagic.ts"
import { cookieHeader, SimulatorState } from "./SimulatorState.ts"
import { makeSimulatorStore } from "./SimulatorStore.ts"

export interface FragmentSimulatorOptions {
  /** default 127.0.0.1 and a free port */
  readonly host?: string
  readonly port?: number
  /** Fragment's receiving wallet in payment messages (default: a fixed sandbox address) */
  readonly walletAddress?: string
  /** sandbox mode: delivery happens only once this reports the payment on chain */
  readonly paymentSeen?: PaymentSeen
  readonly prices?: SimulatorPrices
  /** `validUntil` of payment messages, seconds from now (default 900) */
  readonly validForSeconds?: number
  /** the sandbox's test recipients (`SimulatorMagic.ts`): on with `true` or timings; off by default */
  readonly magic?: boolean | MagicOptions
  /** cookie sessions it issues (default 1): the first is `cookies`, the others `moreSessions` */
  readonly sessions?: number
  /**
   * Sandbox world: its sessions and invoices kept in this file (`SimulatorStore.ts`), restored from it
   * at start, so another process continues them after this one dies.
   */
  readonly stateFile?: string
}

export interface FragmentSimulatorHandle {
  /** base URL, e.g. http://127.0.0.1:41234 (use as FRAGMENT_URL) */
  readonly url: string
  /** Cookie header of the session the simulator issued (use as FRAGMENT_COOKIES) */
  readonly cookies: string
  /** further sessions it issued (`sessions` > 1), as FRAGMENT_SESSIONS with FRAGMENT_COOKIES_<NAME> */
  readonly moreSessions: ReadonlyArray<{ readonly label: string; readonly cookies: string }>
  readonly walletAddress: string
  readonly control: SimulatorControl
  /** adapter options pointing at this simulator */
  readonly fragmentOptions: (overrides?: Partial<Omit<FragmentOptions, "baseUrl" | "cookies">>) => FragmentOptions
  readonly close: () => Promise<void>
}

/** A fixed, valid, non-bounceable address no real wallet controls a key for. */
export const SANDBOX_FRAGMENT_WALLET = new Address(0, Buffer.alloc(32, 0x5a)).toString({ bounceable: false })

const MAX_BODY = 256 * 1024

/** What an anti-bot edge answers instead of the site: a challenge page, HTTP 403. */
const ANTI_BOT_PAGE = `<!DOCTYPE html><html><head><title>Just a moment...</title></head>
<body><div id="cf-chl-widget">Checking if the site connection is secure</div></body></html>`

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    let size = 0
    req.on("data", (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY) req.destroy(new Error("body too large"))
      else chunks.push(chunk)
    })
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf-8")))
    req.on("error", reject)
  })

const send = (res: ServerResponse, status: number, type: string, body: string, extra: Record<string, string> = {}) => {
  if (res.destroyed) return
  res.writeHead(status, { "content-type": type, "content-length": Buffer.byteLength(body), ...extra })
  res.end(body)
}

const json = (res: ServerResponse, body: unknown) =>
  send(
    res,
    200,
    "application/json",
    JSON.stringify(body, (_k, v) => (typeof v === "bigint" ? v.toString() : v))
  )

const start = async (options: FragmentSimulatorOptions = {}): Promise<FragmentSimulatorHandle> => {
  const magic = options.magic ?? false
  const state = new SimulatorState(new SimulatorMagic(magic !== false, typeof magic === "object" ? magic : {}))
  const store = options.stateFile === undefined ? undefined : makeSimulatorStore(options.stateFile)
  // Sessions handed out before (same cookies) come first; new ones only beyond them.
  const restored = (store?.load(state) ?? []).map((ssid) => state.sessions.get(ssid)).filter((s) => s !== undefined)
  const issued = Array.from({ length: Math.max(1, options.sessions ?? 1) }, (_, i) => restored[i] ?? state.newSession())
  const primary = issued[0]!
  const more = issued.slice(1).map((session, i) => ({ label: `s${i + 2}`, cookies: cookieHeader(session) }))
  const issuedIds = issued.map((s) => s.ssid)
  const persist = () => store?.save(state, issuedIds) ?? Promise.resolve()
  await persist()
  const walletAddress = options.walletAddress ?? SANDBOX_FRAGMENT_WALLET
  const validForSeconds = options.validForSeconds ?? 900
  const timers = new Set<NodeJS.Timeout>()
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer)
        resolve()
      }, ms)
      timers.add(timer)
    })
  let baseUrl = ""

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? "/", "http://localhost")
    const body = req.method === "POST" ? await readBody(req) : ""
    const fields: Fields = Object.fromEntries(new URLSearchParams(body))
    const method = url.pathname === "/api" ? (fields["method"] ?? "") : url.pathname
    const fault = state.takeInjection(method)
    if (fault?.delayMs !== undefined) await sleep(fault.delayMs)
    if (fault?.antiBot === true || state.switches.blocked) {
      state.logCall(method, fields, 403)
      return send(res, 403, "text/html; charset=UTF-8", ANTI_BOT_PAGE, {
        server: "cloudflare",
        "cf-ray": "8f0sandbox-AMS"
      })
    }
    if (fault?.status !== undefined) {
      state.logCall(method, fields, fault.status)
      const body = fault.body ?? `<html><body>HTTP ${fault.status}</body></html>`
      return send(res, fault.status, body.startsWith("{") ? "application/json" : "text/html", body, fault.headers)
    }
    if (fault?.malformed === true) {
      state.logCall(method, fields, 200)
      return send(res, 200, "application/json", '{"ok":true,"transaction":{"validUntil":')
    }
    const session = state.sessionOf(req.headers.cookie)
    if (req.method === "GET" && isPage(url.pathname)) {
      // unknown cookies get a fresh anonymous session, as the real site hands one out
      const viewer = session ?? state.newSession()
      state.pageLoads.push({ page: url.pathname, hash: viewer.hash })
      const setCookie: Record<string, string> =
        session === undefined ? { "set-cookie": `stel_ssid=${viewer.ssid}; path=/` } : {}
      return send(res, 200, "text/html; charset=UTF-8", renderPage(url.pathname, viewer.hash, 3.25), setCookie)
    }
    if (req.method === "POST" && url.pathname === "/api") {
      if (session === undefined || url.searchParams.get("hash") !== session.hash) {
        state.logCall(method, fields, 200)
        return json(res, { error: "Bad request" })
      }
      const answer = await handleApi(
        {
          state,
          session,
          hasTonToken: state.hasTonToken(req.headers.cookie, session),
          prices: options.prices ?? {},
          walletAddress,
          validForSeconds,
          paymentSeen: options.paymentSeen,
          baseUrl,
          sleep
        },
        method,
        fields
      )
      state.logCall(method, fields, 200)
      // What the answer tells the client (a req_id, a status) is on disk before the client reads it.
      await persist()
      return json(res, answer)
    }
    if (req.method === "GET" && url.pathname === "/tonkeeper/rawRequest") {
      const invoice = state.invoices.get(url.searchParams.get("id") ?? "")
      if (invoice === undefined) return send(res, 404, "application/json", '{"error":"Not found"}')
      return json(
        res,
        rawRequest(
          {
            state,
            prices: options.prices ?? {},
            walletAddress,
            validForSeconds,
            paymentSeen: options.paymentSeen,
            baseUrl
          },
          invoice
        )
      )
    }
    return send(res, 404, "text/html", "<html><body>Not found</body></html>")
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => send(res, 500, "text/html", "<html><body>Internal error</body></html>"))
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve())
  })
  const address = server.address() as AddressInfo
  baseUrl = `http://${address.address.includes(":") ? `[${address.address}]` : address.address}:${address.port}`
  const cookies = cookieHeader(primary)

  return {
    url: baseUrl,
    cookies,
    moreSessions: more,
    walletAddress,
    control: makeControl(state),
    fragmentOptions: (overrides = {}) => ({
      timeout: "5 seconds",
      rateLimitDelay: "10 millis",
      ...(more.length === 0
        ? {}
        : { moreSessions: more.map((s) => ({ label: s.label, cookies: Redacted.make(s.cookies) })) }),
      ...overrides,
      baseUrl,
      cookies: Redacted.make(cookies)
    }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer)
        timers.clear()
        server.close(() => resolve())
        server.closeAllConnections()
      })
  }
}

export const FragmentSimulator = {
  start,
  /** `start` as a scoped Effect: the server closes with the scope. */
  scoped: (options: FragmentSimulatorOptions = {}) =>
    Effect.acquireRelease(
      Effect.promise(() => start(options)),
      (sim) => Effect.promise(() => sim.close())
    )
}
