import type { MessageKey } from "../i18n/en.ts"
import { MONEY_PARAM, type Params } from "../i18n/Translate.ts"
import type { Flash } from "./WebCookies.ts"

/**
 * Where a browser goes after each form, and what it is told. The route answered JSON; the browser
 * gets a 303 to a page (post/redirect/get) with a one-shot message, so reloading never re-posts.
 */
export interface FormOutcome {
  /** Page after success. */
  readonly next: string
  readonly flash: Flash
}

interface FormRule {
  readonly pattern: RegExp
  /** Where to send the browser back to when the form failed and no same-site Referer says better. */
  readonly back: (m: RegExpExecArray) => string
  readonly success: (m: RegExpExecArray, json: Json) => FormOutcome
}

type Json = Readonly<Record<string, unknown>>

/** A value inside the route's JSON answer, by path (`at(json, "order", "order_id")`). */
const at = (json: Json, ...path: ReadonlyArray<string>): unknown =>
  path.reduce<unknown>(
    (value, key) => (typeof value === "object" && value !== null ? (value as Json)[key] : undefined),
    json
  )

const ok = (key: MessageKey, params?: Params): Flash => ({ kind: "ok", lines: [params ? { key, params } : { key }] })
const money = (n: unknown) => `${MONEY_PARAM}${typeof n === "number" ? n : 0}`
const id = (n: unknown) => String(n ?? "")

/** A message about one top-up: once it is credited (or refused) the open page says so instead (app.js). */
const about = (topup: unknown, flash: Flash): Flash => (typeof topup === "number" ? { ...flash, topup } : flash)

const orderPlaced = (_: RegExpExecArray, json: Json): FormOutcome => ({
  next: "/v2/orders",
  flash: ok("flash.orderPlaced", {
    id: id(at(json, "order", "order_id")),
    price: money(at(json, "order", "price_uzs"))
  })
})

const RULES: ReadonlyArray<FormRule> = [
  {
    pattern: /^\/v2\/balance\/top-up$/,
    back: () => "/v2/dashboard#topup",
    success: (_, json) => ({
      next: `/v2/dashboard#topup-${id(at(json, "topup", "topup_id"))}`,
      flash: about(
        at(json, "topup", "topup_id"),
        ok("flash.topupCreated", { id: id(at(json, "topup", "topup_id")), amount: money(at(json, "payable_uzs")) })
      )
    })
  },
  {
    pattern: /^\/v2\/balance\/top-up\/receipt$/,
    back: () => "/v2/dashboard#receipt",
    success: (_, json) => ({
      next: `/v2/dashboard#topup-${id(at(json, "topup_id"))}`,
      flash: about(at(json, "topup_id"), ok("flash.receiptSent", { id: id(at(json, "topup_id")) }))
    })
  },
  {
    pattern: /^\/v2\/balance\/topup\/(\d+)\/cancel$/,
    back: () => "/v2/dashboard",
    success: (m) => ({ next: "/v2/dashboard", flash: ok("flash.topupCancelled", { id: m[1]! }) })
  },
  {
    pattern: /^\/v2\/sandbox\/push\/inbox$/,
    back: () => "/v2/sandbox#push-inbox",
    success: () => ({ next: "/v2/sandbox#push-inbox", flash: ok("flash.sandboxPushOn") })
  },
  { pattern: /^\/v2\/orders\/stars$/, back: () => "/v2/dashboard#buy-stars", success: orderPlaced },
  { pattern: /^\/v2\/orders\/premium$/, back: () => "/v2/dashboard#buy-premium", success: orderPlaced },
  { pattern: /^\/v2\/gifts\/buy$/, back: () => "/v2/gifts#send-gift", success: orderPlaced },
  {
    pattern: /^\/v2\/api-docs\/getinfo-upgrade$/,
    back: () => "/v2/api-docs#tiers",
    success: (_, json) => ({
      next: "/v2/api-docs#tiers",
      flash: ok("flash.tierUpgraded", { tier: id(at(json, "tier")) })
    })
  },
  {
    pattern: /^\/v2\/api-key\/webhooks\/(\d+)\/delete$/,
    back: () => "/v2/api-docs#webhooks",
    success: (m) => ({ next: "/v2/api-docs#webhooks", flash: ok("flash.webhookDeleted", { id: m[1]! }) })
  },
  {
    pattern: /^\/v2\/tickets\/new$/,
    back: () => "/v2/tickets#new-ticket",
    success: (_, json) => ({
      next: `/v2/tickets/${id(at(json, "ticket", "ticket_id"))}`,
      flash: ok("flash.ticketCreated", { id: id(at(json, "ticket", "ticket_id")) })
    })
  },
  {
    pattern: /^\/v2\/tickets\/(\d+)\/reply$/,
    back: (m) => `/v2/tickets/${m[1]}#reply`,
    success: (m) => ({ next: `/v2/tickets/${m[1]}#conversation`, flash: ok("flash.replySent") })
  },
  {
    pattern: /^\/v2\/admin\/login$/,
    back: () => "/v2/admin/login",
    success: () => ({ next: "/v2/admin", flash: ok("flash.done") })
  },
  {
    pattern: /^\/v2\/admin\/pricing$/,
    back: () => "/v2/admin#pricing",
    success: () => ({ next: "/v2/admin", flash: ok("flash.pricesSaved") })
  },
  {
    pattern: /^\/v2\/admin\/topups\/(\d+)\/approve$/,
    back: () => "/v2/admin/topups",
    success: (m) => ({ next: "/v2/admin/topups", flash: ok("flash.topupApproved", { id: m[1]! }) })
  },
  {
    pattern: /^\/v2\/admin\/topups\/(\d+)\/reject$/,
    back: () => "/v2/admin/topups",
    success: (m) => ({ next: "/v2/admin/topups", flash: ok("flash.topupRejected", { id: m[1]! }) })
  },
  {
    pattern: /^\/v2\/admin\/payments\/(\d+)\/assign$/,
    back: (m) => `/v2/admin/payments#pay-${m[1]}`,
    success: (m, json) => ({
      next: "/v2/admin/payments",
      flash: ok("flash.paymentAssigned", { id: m[1]!, topup: id(at(json, "topup_id")) })
    })
  },
  {
    pattern: /^\/v2\/admin\/users\/(\d+)\/adjust$/,
    back: (m) => `/v2/admin/users/${m[1]}#adjust`,
    success: (m, json) => ({
      next: `/v2/admin/users/${m[1]}#user-history`,
      flash: ok("flash.balanceAdjusted", {
        amount: money(at(json, "amount_uzs")),
        balance: money(at(json, "balance_uzs"))
      })
    })
  },
  {
    pattern: /^\/v2\/admin\/users\/(\d+)\/webhooks\/(\d+)\/delete$/,
    back: (m) => `/v2/admin/users/${m[1]}#user-webhooks`,
    success: (m) => ({
      next: `/v2/admin/users/${m[1]}#user-webhooks`,
      flash: ok("flash.operatorWebhookDeleted", { id: m[2]! })
    })
  },
  {
    pattern: /^\/v2\/admin\/orders\/(\d+)\/retry$/,
    back: () => "/v2/admin/orders",
    success: (m) => ({ next: "/v2/admin/orders", flash: ok("flash.orderRetried", { id: m[1]! }) })
  },
  {
    pattern: /^\/v2\/admin\/orders\/(\d+)\/mark-done$/,
    back: () => "/v2/admin/orders",
    success: (m) => ({ next: "/v2/admin/orders", flash: ok("flash.orderDone", { id: m[1]! }) })
  },
  {
    pattern: /^\/v2\/admin\/orders\/(\d+)\/recheck$/,
    back: () => "/v2/admin/orders",
    success: (m) => ({ next: "/v2/admin/orders", flash: ok("flash.orderRechecked", { id: m[1]! }) })
  },
  {
    pattern: /^\/v2\/admin\/orders\/(\d+)\/refund$/,
    back: () => "/v2/admin/orders",
    success: (m) => ({ next: "/v2/admin/orders", flash: ok("flash.orderRefunded", { id: m[1]! }) })
  },
  {
    pattern: /^\/v2\/admin\/tickets\/(\d+)\/reply$/,
    back: (m) => `/v2/admin/tickets/${m[1]}#reply`,
    success: (m) => ({ next: `/v2/admin/tickets/${m[1]}#conversation`, flash: ok("flash.replySent") })
  },
  {
    pattern: /^\/v2\/admin\/tickets\/(\d+)\/close$/,
    back: (m) => `/v2/admin/tickets/${m[1]}`,
    success: (m) => ({ next: `/v2/admin/tickets/${m[1]}`, flash: ok("flash.ticketClosed", { id: m[1]! }) })
  },
  {
    pattern: /^\/v2\/admin\/tickets\/(\d+)\/reopen$/,
    back: (m) => `/v2/admin/tickets/${m[1]}`,
    success: (m) => ({ next: `/v2/admin/tickets/${m[1]}`, flash: ok("flash.ticketReopened", { id: m[1]! }) })
  }
]

const fallback = (path: string): FormOutcome => ({
  next: path.startsWith("/v2/admin") ? "/v2/admin" : "/v2/dashboard",
  flash: ok("flash.done")
})

/** The outcome of a successful form post to `path`. */
export const formSuccess = (path: string, json: unknown): FormOutcome => {
  for (const rule of RULES) {
    const match = rule.pattern.exec(path)
    if (match) return rule.success(match, (json ?? {}) as Json)
  }
  return fallback(path)
}

/** The form a failed post came from when its page's anchor is not the usual one: the gifts' one form. */
export const formAnchor = (path: string, _fields: Readonly<Record<string, string>>): string | undefined =>
  path === "/v2/gifts/buy" ? "send-gift" : undefined

/** Where a failed form post to `path` returns to (when the Referer does not say). */
export const formBack = (path: string): string => {
  for (const rule of RULES) {
    const match = rule.pattern.exec(path)
    if (match) return rule.back(match)
  }
  return fallback(path).next
}
