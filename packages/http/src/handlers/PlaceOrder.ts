import type { OrderRequest } from "@resale/core/orders/OrderRules.ts"
import { Effect } from "effect"
import { CurrentUser } from "../api/Middleware.ts"
import type { GiftCatalogUnavailable, GiftNotFound } from "@resale/webkit/GiftCatalog.ts"
import { mapErrors } from "./ErrorMapping.ts"
import { idempotent } from "./Idempotent.ts"
import { placeOrder as placeWith } from "@resale/webkit/AccountActions.ts"

/**
 * Creates an order (balance debited, order queued) and answers it with the new balance: the
 * API-key API's purchases and the web shopper's forms alike, under `Idempotency-Key` when sent.
 */
export const placeOrder = <R>(
  endpoint: string,
  key: string | undefined,
  body: unknown,
  build: Effect.Effect<OrderRequest, GiftNotFound | GiftCatalogUnavailable, R>
) =>
  Effect.gen(function* () {
    const { userId } = yield* CurrentUser
    return yield* placeWith(idempotent, endpoint, userId, key, body, build)
  }).pipe(mapErrors)

type OrderHeaders = { readonly "idempotency-key"?: string }

/** Stars for `username`, from a form or a JSON body alike. */
export const placeStars = (
  endpoint: string,
  headers: OrderHeaders,
  payload: { readonly username: string; readonly amount: number }
) =>
  placeOrder(
    endpoint,
    headers["idempotency-key"],
    payload,
    Effect.succeed({ kind: "stars", recipient: payload.username, stars: payload.amount })
  )

/** Premium for `username` for `duration` months, from a form or a JSON body alike. */
export const placePremium = (
  endpoint: string,
  headers: OrderHeaders,
  payload: { readonly username: string; readonly duration: number }
) =>
  placeOrder(
    endpoint,
    headers["idempotency-key"],
    payload,
    Effect.succeed({ kind: "premium", recipient: payload.username, months: payload.duration })
  )
