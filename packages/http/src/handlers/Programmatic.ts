import { Balances } from "@resale/core/ledger/Balances.ts"
import type { OrderRequest } from "@resale/core/orders/OrderRules.ts"
import { OrderService } from "@resale/core/orders/OrderService.ts"
import { Payments } from "@resale/core/payments/Payments.ts"
import { PricingService } from "@resale/core/pricing/PricingService.ts"
import { TopupService } from "@resale/core/topups/TopupService.ts"
import { RecipientInfo } from "@resale/core/accounts/RecipientInfo.ts"
import { Effect, Option } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../api/Api.ts"
import * as Dto from "@resale/wire/Dtos.ts"
import { CurrentUser } from "../api/Middleware.ts"
import { GiftCatalog } from "@resale/webkit/GiftCatalog.ts"
import { PricingCache } from "@resale/webkit/PricingCache.ts"
import { HttpConfig } from "@resale/webkit/HttpConfig.ts"
import { mapErrors } from "./ErrorMapping.ts"
import { idempotent } from "./Idempotent.ts"
import { createTopup } from "@resale/webkit/AccountActions.ts"
import { placeOrder, placePremium, placeStars } from "./PlaceOrder.ts"
import { balanceAnswer } from "./ProgrammaticFront.ts"
import { giftsOut, orderOut, pricingOut, topupOut } from "./Wire.ts"

/** Fragment gives a recipient's photo as an `<img>` tag; the answer's `photo_url` is its http(s) address. */
const photoUrl = (photo: string | undefined): string | null => {
  const src = photo === undefined ? undefined : /src="(https?:\/\/[^"]+)"/.exec(photo)?.[1]
  return src ?? null
}

export const PricingHandlers = HttpApiBuilder.group(Api, "pricing", (handlers) =>
  Effect.gen(function* () {
    const pricing = yield* PricingCache
    const { sandbox } = yield* HttpConfig
    return handlers.handle("pricing", () => Effect.map(pricing.get, (p) => pricingOut(p, sandbox)))
  })
)

/** The API-key API. */
export const ProgrammaticHandlers = HttpApiBuilder.group(Api, "api", (handlers) =>
  Effect.gen(function* () {
    const balances = yield* Balances
    const recipients = yield* RecipientInfo
    const pricing = yield* PricingService
    const gifts = yield* GiftCatalog
    const orders = yield* OrderService
    const topups = yield* TopupService
    const { sandbox } = yield* HttpConfig
    const services = Effect.provideService(GiftCatalog, gifts)
    return handlers
      .handle("balance", () =>
        Effect.gen(function* () {
          const { userId } = yield* CurrentUser
          return balanceAnswer(yield* balances.balance(userId), sandbox)
        })
      )
      .handle("buyStars", ({ headers, payload }) => placeStars("POST /v2/api/stars/buy", headers, payload))
      .handle("buyPremium", ({ headers, payload }) => placePremium("POST /v2/api/premium/buy", headers, payload))
      .handle("buyGift", ({ headers, payload }) =>
        placeOrder(
          "POST /v2/api/gift/buy",
          headers["idempotency-key"],
          payload,
          Effect.map(
            GiftCatalog.use((c) => c.find(payload.gift_id)),
            (gift): OrderRequest => ({
              kind: "gift",
              recipient: payload.username,
              gift: { id: gift.id, stars: gift.stars },
              comment: payload.comment ?? null,
              senderAccount: payload.account ?? null,
              anonymous: payload.anonymous ?? null
            })
          )
        ).pipe(services)
      )
      .handle("order", ({ params }) =>
        Effect.gen(function* () {
          const { userId } = yield* CurrentUser
          // Someone else's order answers 404, as a missing one does.
          const order = yield* orders.find({ kind: "user", userId }, params.order_id)
          return orderOut(order)
        }).pipe(mapErrors)
      )
      .handle("createTopup", ({ headers, payload }) =>
        Effect.gen(function* () {
          const { userId } = yield* CurrentUser
          return yield* createTopup(idempotent, "POST /v2/api/topups", userId, headers["idempotency-key"], payload)
        }).pipe(mapErrors)
      )
      .handle("topup", ({ params }) =>
        Effect.gen(function* () {
          const { userId } = yield* CurrentUser
          return topupOut(yield* topups.find({ kind: "user", userId }, params.topup_id))
        }).pipe(mapErrors)
      )
      .handle("gifts", () =>
        Effect.gen(function* () {
          return giftsOut(yield* gifts.list, yield* pricing.get, sandbox)
        })
      )
      .handle("getInfo", ({ payload }) =>
        Effect.gen(function* () {
          const { userId } = yield* CurrentUser
          const username = payload.username.trim().replace(/^@/, "")
          const { recipient, usage } = yield* recipients.lookup(userId, username)
          const quota = { tier: usage.tier, used: usage.used, limit: usage.limit }
          return Option.match(recipient, {
            onNone: () => ({ username, found: false, name: null, photo_url: null, quota, sandbox }),
            onSome: (r) => ({
              username: r.username,
              found: true,
              name: r.name,
              photo_url: photoUrl(r.photo),
              quota,
              sandbox
            })
          })
        }).pipe(mapErrors)
      )
  })
)

/** Operator calls of the programmatic API (`X-Admin-Token`). */
export const AdminProgrammaticHandlers = HttpApiBuilder.group(Api, "apiAdmin", (handlers) =>
  Effect.gen(function* () {
    const topups = yield* TopupService
    const payments = yield* Payments
    return handlers
      .handle("markPaid", ({ headers, params }) =>
        idempotent(
          headers["idempotency-key"],
          "operator",
          "POST /v2/api/admin/topups/:topup_id/mark-paid",
          params,
          Dto.Topup,
          Effect.map(topups.markPaid(params.topup_id), topupOut)
        ).pipe(mapErrors)
      )
      .handle("incomingPayment", ({ headers, payload }) =>
        idempotent(
          headers["idempotency-key"],
          "operator",
          "POST /v2/api/admin/payments/incoming",
          payload,
          Dto.IncomingPaymentResult,
          Effect.map(
            payments.incoming({
              amountUzs: payload.amount_uzs,
              cardLast4: payload.card_last4 ?? null,
              externalId: payload.external_id ?? null
            }),
            (result) => ({
              payment_id: result.payment.id,
              status: result.outcome === "duplicate" ? result.payment.status : result.outcome,
              topup_id: Option.match(result.topup, { onNone: () => result.payment.topupId, onSome: (t) => t.id }),
              duplicate: result.outcome === "duplicate"
            })
          )
        ).pipe(mapErrors)
      )
  })
)
