import type { Flash } from "../gateway/WebCookies.ts"
import type { Translator } from "../i18n/Translate.ts"
import type { Person } from "./People.ts"

/** Which menu a page shows: visitors, signed-in shoppers, or operators. */
export type Area = "public" | "user" | "admin"

/** Everything about the current request that a page needs besides its own data. */
export interface PageContext {
  readonly tr: Translator
  readonly sandbox: boolean
  /** A public TON explorer's base URL, to link an order's payment; none in sandbox (its chain is emulated). */
  readonly explorer?: string | null
  /** CSRF token for this browser; every POST form carries it. */
  readonly csrf: string
  readonly flash: Flash | undefined
  /** Path and query of this page, where the language switcher returns. */
  readonly path: string
  readonly area: Area
  /** A shopper's session is present (the menu shows the account links). */
  readonly signedIn: boolean
  /** Cache-busting suffix of the static assets. */
  readonly assetVersion: string
  /** On operator lists: who the user numbers are (loaded with the page's data). */
  readonly people?: ReadonlyMap<number, Person>
}

/** The name of a page's menu entry, to mark it current. */
export type NavKey =
  /** sandbox mode's help page: reached from the sandbox banner, not the menu */
  | "sandbox"
  | "status"
  | "home"
  | "dashboard"
  | "orders"
  | "history"
  | "gifts"
  | "support"
  | "api"
  | "admin"
  | "topups"
  | "payments"
  | "adminOrders"
  | "tickets"
  | "people"
  | "reports"
  | "none"
