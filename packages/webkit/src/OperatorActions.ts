import type { OrderId, TopupId } from "@resale/core/ids.ts"
import { OrderService } from "@resale/core/orders/OrderService.ts"
import { TopupService } from "@resale/core/topups/TopupService.ts"
import { orderOut, topupOut } from "@resale/wire"
import * as Dto from "@resale/wire/Dtos.ts"
import { Effect } from "effect"
import { PricingService } from "@resale/core/pricing/PricingService.ts"
import type { PricingForm } from "./FormPayloads.ts"
import type { idempotentWith } from "./Idempotent.ts"
import { PricingCache } from "./PricingCache.ts"

/**
 * The operator's money-moving calls, each under its `Idempotency-Key` when one is sent (operators
 * share one key scope): the JSON routes and the panel's forms run the same code and store the same
 * answer, so a key replays alike from either.
 */
type Idempotent = ReturnType<typeof idempotentWith>

/** An operator's optional note: blank is none. */
export const note = (text: string) => (text.trim() === "" ? undefined : text.trim())

export const approveTopup = (
  idempotent: Idempotent,
  key: string | undefined,
  params: { readonly topup_id: TopupId },
  payload: { readonly admin_note: string; readonly confirm_duplicate: boolean }
) =>
  TopupService.use((topups) =>
    idempotent(
      key,
      "operator",
      "POST /v2/admin/topups/:topup_id/approve",
      { ...params, ...payload },
      Dto.Topup,
      Effect.map(
        topups.approve(params.topup_id, note(payload.admin_note), { confirmDuplicate: payload.confirm_duplicate }),
        topupOut
      )
    )
  )

/** An order action of the panel: `body` is what the key is bound to (the path's number and the form). */
const orderAction = <E>(
  idempotent: Idempotent,
  key: string | undefined,
  endpoint: string,
  body: object,
  run: (orders: OrderService["Service"]) => Effect.Effect<Parameters<typeof orderOut>[0], E>
) =>
  OrderService.use((orders) =>
    idempotent(key, "operator", endpoint, body, Dto.Order, Effect.map(run(orders), orderOut))
  )

export const retryOrder = (idempotent: Idempotent, key: string | undefined, params: { readonly order_id: OrderId }) =>
  orderAction(idempotent, key, "POST /v2/admin/orders/:order_id/retry", params, (orders) =>
    orders.retry(params.order_id)
  )

export const markOrderDone = (
  idempotent: Idempotent,
  key: string | undefined,
  params: { readonly order_id: OrderId },
  payload: { readonly tx_id: string }
) =>
  orderAction(idempotent, key, "POST /v2/admin/orders/:order_id/mark-done", { ...params, ...payload }, (orders) =>
    orders.markDone(params.order_id, note(payload.tx_id))
  )

export const recheckOrder = (idempotent: Idempotent, key: string | undefined, params: { readonly order_id: OrderId }) =>
  orderAction(idempotent, key, "POST /v2/admin/orders/:order_id/recheck", params, (orders) =>
    orders.recheck(params.order_id)
  )

export const refundOrder = (
  idempotent: Idempotent,
  key: string | undefined,
  params: { readonly order_id: OrderId },
  payload: { readonly note: string }
) =>
  orderAction(idempotent, key, "POST /v2/admin/orders/:order_id/refund", { ...params, ...payload }, (orders) =>
    orders.refund(params.order_id, payload.note)
  )

/** A new price list; this server's cached list is dropped at once (others follow within their second). */
export const setPrices = (payload: typeof PricingForm.Type) =>
  Effect.gen(function* () {
    const pricing = yield* PricingService
    const prices = yield* pricing.set({
      starPriceUzs: payload.star_price_uzs,
      premium3MonthUzs: payload.premium_3_month_uzs,
      premium6MonthUzs: payload.premium_6_month_uzs,
      premium12MonthUzs: payload.premium_12_month_uzs
    })
    yield* PricingCache.use((cache) => cache.invalidate)
    return prices
  })
