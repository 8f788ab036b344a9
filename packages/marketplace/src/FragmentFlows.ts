/**
 * The three Fragment purchase flows as data: which page's hash they use, the method names of
 * each step, and whether the state call comes before the recipient search (top-up) or after it.
 */
import type { PurchaseKind } from "@resale/core/ports/Marketplace.ts"
import type { FormFields, FragmentPage } from "./FragmentTransport.ts"

export interface FragmentFlow {
  readonly kind: PurchaseKind
  readonly page: FragmentPage
  readonly stateMethod: string
  readonly searchMethod: string
  readonly initMethod: string
  readonly linkMethod: string
  /** Fragment's top-up page opens its state before the search; Stars and Premium after it */
  readonly stateFirst: boolean
  /** extra search fields for a bare lookup (no quantity/months chosen yet) */
  readonly lookupFields: FormFields
}

export const StarsFlow: FragmentFlow = {
  kind: "stars",
  page: "/stars/buy",
  stateMethod: "updateStarsBuyState",
  searchMethod: "searchStarsRecipient",
  initMethod: "initBuyStarsRequest",
  linkMethod: "getBuyStarsLink",
  stateFirst: false,
  lookupFields: { quantity: "" }
}

export const PremiumFlow: FragmentFlow = {
  kind: "premium",
  page: "/premium/gift",
  stateMethod: "updatePremiumState",
  searchMethod: "searchPremiumGiftRecipient",
  initMethod: "initGiftPremiumRequest",
  linkMethod: "getGiftPremiumLink",
  stateFirst: false,
  lookupFields: { months: "" }
}

export const TonTopupFlow: FragmentFlow = {
  kind: "ton",
  page: "/ads/topup",
  stateMethod: "updateAdsTopupState",
  searchMethod: "searchAdsTopupRecipient",
  initMethod: "initAdsTopupRequest",
  linkMethod: "getAdsTopupLink",
  stateFirst: true,
  lookupFields: {}
}

export const flowOf = (kind: PurchaseKind): FragmentFlow =>
  kind === "stars" ? StarsFlow : kind === "premium" ? PremiumFlow : TonTopupFlow

/**
 * Fragment's own bounds on a stars purchase, what this adapter knows of Fragment (its simulator
 * answers by them too); the product's limits are core's `STARS_MIN` / `STARS_MAX`, checked before.
 */
export const FRAGMENT_STARS_MIN = 50
export const FRAGMENT_STARS_MAX = 10_000_000

/** "@name", "name" and "t.me/name" all mean the username "name". */
export const normalizeUsername = (input: string): string | undefined => {
  const name = input
    .trim()
    .replace(/^(https?:\/\/)?t\.me\//i, "")
    .replace(/^@/, "")
  return /^[A-Za-z][A-Za-z0-9_]{3,31}$/.test(name) ? name : undefined
}
