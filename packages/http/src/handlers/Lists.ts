import type { Page } from "@resale/core"
import { OrderService } from "@resale/core/orders/OrderService.ts"
import { TopupService } from "@resale/core/topups/TopupService.ts"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../api/Api.ts"
import { BadRequest } from "../api/Errors.ts"
import { CurrentUser } from "../api/Middleware.ts"
import { orderOut, topupOut } from "./Wire.ts"

interface PageQuery {
  readonly limit: number
  readonly cursor?: number
  readonly created_after?: string
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/

/** The storage filter of a page request: one row more than asked, to learn whether more follow. */
const window = (query: PageQuery) =>
  Effect.gen(function* () {
    // 1..LIST_LIMIT_MAX: the contract's schema, checked (422) before the handler runs.
    const limit = query.limit
    let createdAfter: Date | undefined
    if (query.created_after !== undefined) {
      createdAfter = new Date(query.created_after)
      if (!ISO_INSTANT.test(query.created_after) || Number.isNaN(createdAfter.getTime())) {
        return yield* new BadRequest({
          detail: "created_after must be an ISO 8601 date-time, e.g. 2026-01-31T12:00:00Z",
          code: "page_invalid",
          params: { field: "created_after" }
        })
      }
    }
    return {
      limit,
      filter: {
        offset: 0,
        limit: limit + 1,
        ...(query.cursor === undefined ? {} : { beforeId: query.cursor }),
        ...(createdAfter === undefined ? {} : { createdAfter })
      }
    }
  })

/** Cuts the extra row off and names the cursor of the next page. */
const cut = <A extends { readonly id: number }>(page: Page<A>, limit: number) => {
  const items = page.items.slice(0, limit)
  const hasMore = page.items.length > limit
  return { items, has_more: hasMore, next_cursor: hasMore ? items[items.length - 1]!.id : null }
}

export const ListsHandlers = HttpApiBuilder.group(Api, "lists", (handlers) =>
  Effect.gen(function* () {
    const orders = yield* OrderService
    const topups = yield* TopupService
    return handlers
      .handle("listOrders", ({ query }) =>
        Effect.gen(function* () {
          const { userId } = yield* CurrentUser
          const { filter, limit } = yield* window(query)
          const page = yield* orders.listOwn(userId, {
            ...filter,
            ...(query.status === undefined ? {} : { status: [query.status] }),
            ...(query.kind === undefined ? {} : { kind: query.kind })
          })
          const { has_more, items, next_cursor } = cut(page, limit)
          return { orders: items.map(orderOut), has_more, next_cursor }
        })
      )
      .handle("listTopups", ({ query }) =>
        Effect.gen(function* () {
          const { userId } = yield* CurrentUser
          const { filter, limit } = yield* window(query)
          const page = yield* topups.listOwn(userId, {
            ...filter,
            ...(query.status === undefined ? {} : { status: [query.status] }),
            ...(query.method === undefined ? {} : { method: query.method })
          })
          const { has_more, items, next_cursor } = cut(page, limit)
          return { topups: items.map(topupOut), has_more, next_cursor }
        })
      )
  })
)
