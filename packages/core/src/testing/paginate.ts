import type { Page, PageRequest } from "../Page.ts"

/** One page of already filtered and sorted rows. */
export const paginate = <A>(rows: ReadonlyArray<A>, page: PageRequest): Page<A> => ({
  items: rows.slice(page.offset, page.offset + page.limit),
  total: rows.length
})

/** Newest first by creation time, then by id (ids break ties of equal instants). */
export const newestFirst = <A extends { readonly id: number; readonly createdAt: Date }>(a: A, b: A): number =>
  b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id
