import type { Html } from "../Html.ts"
import type { PageContext } from "../layout/PageContext.ts"
import type { Flash, FlashLine } from "./WebCookies.ts"

/** What a page answers: the page, a redirect (with a flash to show there), or a failure in words. */
export type PageResult =
  | { readonly _tag: "Page"; readonly html: Html }
  | { readonly _tag: "Redirect"; readonly to: string; readonly flash?: Flash }
  | { readonly _tag: "Failed"; readonly status: number; readonly lines: ReadonlyArray<FlashLine> }

export const page = (html: Html): PageResult => ({ _tag: "Page", html })

/** Not signed in: to the sign-in page of the area, saying why. */
export const signInFirst = (ctx: PageContext): PageResult => {
  const admin = ctx.area === "admin"
  return {
    _tag: "Redirect",
    to: admin ? "/v2/admin/login" : "/v2/",
    flash: { kind: "error", lines: [{ key: admin ? "error.adminSignIn" : "error.signIn" }] }
  }
}

/** `offset` and `limit` (1 to 100) of a list page from its query; anything that is not digits is the default. */
export const paging = (query: URLSearchParams, limitDefault: number) => {
  const int = (name: string, fallback: number, max: number) => {
    const raw = query.get(name)
    return raw !== null && /^\d{1,9}$/.test(raw) ? Math.min(Number(raw), max) : fallback
  }
  return { offset: int("offset", 0, 1e9), limit: Math.max(1, int("limit", limitDefault, 100)) }
}
