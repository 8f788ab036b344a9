import { Balances } from "@resale/core/ledger/Balances.ts"
import { clampPage } from "@resale/core/Page.ts"
import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerRequest } from "effect/http"
import { WebSessions } from "@resale/webkit/WebSessions.ts"
import { HttpConfig } from "@resale/webkit/HttpConfig.ts"
import { historyPageOut } from "@resale/wire/Dtos.ts"
import { json, queryInt, requireUser } from "./RouteKit.ts"

/**
 * A shopper's balance history: every ledger entry of their account, newest first, with its cause
 * (top-up, order, refund, tier, adjustment), the operator's note where there is one, and the
 * balance right after it. The ledger is the source of truth, so the page adds up exactly.
 *
 *   GET /v2/balance/history?offset=&limit=
 *   -> { entries: [{ entry_id, amount_uzs, cause, cause_id, note, balance_after_uzs, created_at }], total, offset, limit }
 */
export const HISTORY_ROUTES = [{ method: "GET", path: "/v2/balance/history" }] as const

export const HistoryRoutes = Layer.effectDiscard(
  Effect.gen(function* () {
    const router = yield* HttpRouter.HttpRouter
    const sessions = yield* WebSessions
    const config = yield* HttpConfig
    const balances = yield* Balances

    yield* router.add("GET", "/v2/balance/history", (request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function* () {
        const who = yield* requireUser(sessions, config.publicUrl)
        if ("refused" in who) return who.refused
        const query = new URL(request.url, "http://localhost").searchParams
        const page = clampPage({ offset: queryInt(query, "offset", 0), limit: queryInt(query, "limit", 20) })
        const found = yield* balances.entries(who.ok, page)
        return json(historyPageOut(found, page))
      })
    )
  })
)
