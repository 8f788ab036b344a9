import type { OrderKind, OrderStatus, Topup, TopupStatus, UserId } from "@resale/core"
import type { Accounts } from "@resale/core/accounts/Accounts.ts"
import type { OrderService } from "@resale/core/orders/OrderService.ts"
import type { PricingService } from "@resale/core/pricing/PricingService.ts"
import type { TicketDetail, TicketService } from "@resale/core/tickets/TicketService.ts"
import type { DuplicateReason } from "@resale/core/topups/DuplicateReceipt.ts"
import type { TopupService } from "@resale/core/topups/TopupService.ts"
import { Effect, Option } from "effect"
import type * as Dto from "./Dtos.ts"
import { adminOrderOut, messageOut, pricingOut, ticketOut, topupOut, userOut } from "./Wire.ts"

/**
 * The operator panel's lists, as its JSON routes answer them and its pages draw them (one query and
 * one mapping for both). Filters are lenient, as the panel's links are: an unknown status or kind is
 * no filter, a paging number that is not digits is the default.
 */
const ORDER_STATUSES: ReadonlyArray<string> = ["queued", "processing", "completed", "failed", "needs_attention"]
const ORDER_KINDS: ReadonlyArray<string> = ["stars", "premium", "gift"]
const TOPUP_STATUSES: ReadonlyArray<string> = ["pending", "review", "paid", "cancelled", "rejected", "expired"]

/** `?name=` digits as a number within `max`, anything else the default. */
const lenientInt = (raw: string | undefined, fallback: number, max = Number.MAX_SAFE_INTEGER) =>
  raw === undefined || !/^\d+$/.test(raw) ? fallback : Math.min(max, Number(raw))

export interface ListPaging {
  readonly offset: number
  readonly limit: number
}

/** `offset` from 0 and `limit` 1 to 100 (50 by default) from the query's text. */
export const listPaging = (offset: string | undefined, limit: string | undefined): ListPaging => ({
  offset: lenientInt(offset, 0),
  limit: Math.max(1, lenientInt(limit, 50, 100))
})

export const adminOrdersList = (
  orders: OrderService["Service"],
  filter: ListPaging & { readonly status?: string | undefined; readonly kind?: string | undefined }
) =>
  Effect.map(
    orders.list({
      offset: filter.offset,
      limit: filter.limit,
      ...(ORDER_STATUSES.includes(filter.status ?? "") ? { status: [filter.status as OrderStatus] } : {}),
      ...(ORDER_KINDS.includes(filter.kind ?? "") ? { kind: filter.kind as OrderKind } : {})
    }),
    (page) => ({ orders: page.items.map(adminOrderOut), total: page.total, offset: filter.offset, limit: filter.limit })
  )

const REASONS: Record<DuplicateReason, "same_file" | "same_amount" | "near_amount"> = {
  SameFile: "same_file",
  SameAmount: "same_amount",
  NearAmount: "near_amount"
}

/**
 * Top-ups as operators list them: each receipt awaiting review names the credited top-up of the
 * same file, or of the same user and (nearly) the same amount, it most likely repeats, so the operator sees it before approving.
 */
export const adminTopupsOut = (service: TopupService["Service"], items: ReadonlyArray<Topup>) =>
  Effect.map(
    service.possibleDuplicates(items),
    (duplicates): Array<typeof Dto.AdminTopup.Type> =>
      items.map((t, i) => ({
        ...topupOut(t),
        possible_duplicate_of: Option.match(duplicates[i]!, { onNone: () => null, onSome: (d) => d.of.id }),
        possible_duplicate_reason: Option.match(duplicates[i]!, {
          onNone: () => null,
          onSome: (d) => REASONS[d.reason]
        })
      }))
  )

/** `status` is a comma-separated list (`review,pending`); each receipt says its type. */
export const adminTopupsList = (
  topups: TopupService["Service"],
  filter: ListPaging & { readonly status?: string | undefined }
) =>
  Effect.gen(function* () {
    const statuses = (filter.status ?? "").split(",").filter((s) => TOPUP_STATUSES.includes(s)) as Array<TopupStatus>
    const { offset, limit } = filter
    const page = yield* topups.list({ offset, limit, ...(statuses.length > 0 ? { status: statuses } : {}) })
    const listed = yield* adminTopupsOut(topups, page.items)
    return {
      topups: listed.map((t, i) => ({ ...t, receipt_type: page.items[i]!.receipt?.contentType ?? null })),
      total: page.total,
      offset,
      limit
    }
  })

export const ticketDetailOut = (detail: TicketDetail): typeof Dto.TicketDetail.Type => ({
  ticket: ticketOut(detail.ticket),
  messages: detail.messages.map(messageOut)
})

/** Who the user numbers on an operator list are (unknown numbers are left out; at most 200 asked). */
export const peopleOf = (accounts: Accounts["Service"], ids: Iterable<UserId>) =>
  Effect.map(
    Effect.forEach([...new Set(ids)].slice(0, 200), (id) => Effect.option(accounts.find(id)), { concurrency: 4 }),
    (found) => found.flatMap((u) => Option.toArray(u)).map(userOut)
  )

/** The operators' ticket list: the newest 100 of all shoppers. */
export const adminTicketsList = (tickets: TicketService["Service"]) =>
  Effect.map(tickets.list({ offset: 0, limit: 100 }), (page): typeof Dto.Tickets.Type => ({
    tickets: page.items.map(ticketOut),
    total: page.total
  }))

/** The panel's front page: prices, and how many top-ups and tickets wait for an operator. */
export const adminHomeOut = (
  core: {
    readonly pricing: PricingService["Service"]
    readonly topups: TopupService["Service"]
    readonly tickets: TicketService["Service"]
  },
  sandbox: boolean
) =>
  Effect.gen(function* () {
    const home: typeof Dto.AdminHome.Type = {
      pricing: pricingOut(yield* core.pricing.get, sandbox),
      pending_topups: (yield* core.topups.list({ status: ["pending"], offset: 0, limit: 1 })).total,
      review_topups: (yield* core.topups.list({ status: ["review"], offset: 0, limit: 1 })).total,
      open_tickets: (yield* core.tickets.list({ status: "open", offset: 0, limit: 1 })).total,
      sandbox
    }
    return home
  })
