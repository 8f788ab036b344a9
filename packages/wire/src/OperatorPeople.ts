import type { UserId } from "@resale/core"
import type { Accounts } from "@resale/core/accounts/Accounts.ts"
import type { Balances } from "@resale/core/ledger/Balances.ts"
import type { OrderService } from "@resale/core/orders/OrderService.ts"
import type { TicketService } from "@resale/core/tickets/TicketService.ts"
import type { TopupService } from "@resale/core/topups/TopupService.ts"
import type { WebhookOverview, WebhookOversight } from "@resale/core/webhooks/WebhookOversight.ts"
import { Effect } from "effect"
import { historyPageOut } from "./Dtos.ts"
import type { ListPaging } from "./OperatorLists.ts"
import { adminOrderOut, ticketOut, topupOut, userOut } from "./Wire.ts"

/**
 * Who is who, for operators: the panel's JSON routes and its pages answer these same shapes.
 * A search is "@durov", "durov" or a name part, as the store's search matches; a number is also
 * tried as a user number and a Telegram id (the core puts those first).
 */
export const usersList = (
  accounts: Accounts["Service"],
  balances: Balances["Service"],
  filter: ListPaging & { readonly search?: string | undefined }
) =>
  Effect.gen(function* () {
    const search = (filter.search ?? "").trim().replace(/^@/, "").slice(0, 64)
    const { offset, limit } = filter
    const page = yield* accounts.list({ offset, limit, ...(search === "" ? {} : { search }) })
    const users = yield* Effect.forEach(page.items, (u) =>
      Effect.map(balances.balance(u.id), (balance) => ({ ...userOut(u), balance_uzs: balance }))
    )
    return { users, total: page.total, offset, limit }
  })

/** An endpoint for the operator: no secret; its newest delivery's state, or null before any event. */
const webhookOut = ({ endpoint: e, lastDelivery: d }: WebhookOverview) => ({
  id: e.id,
  url: e.url,
  events: [...e.events],
  created_at: e.createdAt.toISOString(),
  last_delivery:
    d === null
      ? null
      : {
          event: d.eventType,
          status: d.status,
          attempts: d.attempts,
          last_status_code: d.lastStatusCode,
          last_error: d.lastError,
          created_at: d.createdAt.toISOString(),
          delivered_at: d.deliveredAt?.toISOString() ?? null
        }
})

export interface PeopleServices {
  readonly accounts: Accounts["Service"]
  readonly balances: Balances["Service"]
  readonly topups: TopupService["Service"]
  readonly orders: OrderService["Service"]
  readonly tickets: TicketService["Service"]
  readonly webhooks: WebhookOversight["Service"]
}

/** One shopper whole: balance, the 20 newest ledger entries, top-ups, orders, tickets, webhooks. */
export const userDetail = (core: PeopleServices, userId: UserId) =>
  Effect.gen(function* () {
    const user = yield* core.accounts.find(userId)
    const recent = { offset: 0, limit: 20 }
    return {
      user: userOut(user),
      balance_uzs: yield* core.balances.balance(userId),
      history: historyPageOut(yield* core.balances.entries(userId, recent), recent).entries,
      topups: (yield* core.topups.list({ ...recent, userId })).items.map(topupOut),
      orders: (yield* core.orders.list({ ...recent, userId })).items.map(adminOrderOut),
      tickets: (yield* core.tickets.list({ ...recent, userId })).items.map(ticketOut),
      webhooks: (yield* core.webhooks.ofUser(userId)).map(webhookOut)
    }
  })
