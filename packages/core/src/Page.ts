import { Schema } from "effect"

/** Offset pagination as the spec's `/v2/orders/list` uses it (defaults 0 and 20). */
export const PageRequest = Schema.Struct({
  offset: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)),
  limit: Schema.Int.check(Schema.isGreaterThan(0))
})
export type PageRequest = typeof PageRequest.Type

export const DEFAULT_PAGE: PageRequest = { offset: 0, limit: 20 }
/** Largest page any list returns; larger requests are clamped, not rejected. */
export const MAX_PAGE_LIMIT = 100

export const clampPage = (page: Partial<PageRequest> = {}): PageRequest => ({
  offset: Math.max(0, Math.trunc(page.offset ?? 0)),
  limit: Math.min(MAX_PAGE_LIMIT, Math.max(1, Math.trunc(page.limit ?? DEFAULT_PAGE.limit)))
})

/** One page of rows plus the count of all rows matching the same filter. */
export interface Page<A> {
  readonly items: ReadonlyArray<A>
  readonly total: number
}
