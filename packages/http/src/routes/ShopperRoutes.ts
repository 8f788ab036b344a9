import { Idempotency } from "@resale/core/idempotency/Idempotency.ts"
import type { OrderRequest } from "@resale/core/orders/OrderRules.ts"
import { OrderService } from "@resale/core/orders/OrderService.ts"
import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerRequest } from "effect/http"
import * as Dto from "@resale/wire/Dtos.ts"
import { WebSessions } from "@resale/webkit/WebSessions.ts"
import { idempotent } from "../handlers/Idempotent.ts"
import { orderOut } from "../handlers/Wire.ts"
import { HttpConfig } from "@resale/webkit/HttpConfig.ts"
import {
  errorResponse,
  formFields,
  intField,
  json,
  requireUser,
  strField,
  validationFailed,
  type ValidationItem
} from "./RouteKit.ts"

/**
 * Stars and Premium bought from the web account. The /v2 contract sells them only through the
 * API-key API; a shopper on the web pays from the same balance through these two form routes,
 * with the same order service, idempotency and answers (`OrderCreated`).
 *
 *   POST /v2/orders/stars    form: username, amount     (Idempotency-Key optional)
 *   POST /v2/orders/premium  form: username, duration
 */
export const SHOPPER_ROUTES = [
  { method: "POST", path: "/v2/orders/stars" },
  { method: "POST", path: "/v2/orders/premium" }
] as const

type Parse = (
  fields: Record<string, string>,
  errors: Array<ValidationItem>
) => { readonly body: unknown; readonly order: OrderRequest }

const stars: Parse = (fields, errors) => {
  const username = strField(["body", "username"], fields["username"], errors)
  const amount = intField(["body", "amount"], fields["amount"], errors)
  return { body: { username, amount }, order: { kind: "stars", recipient: username, stars: amount } }
}

const premium: Parse = (fields, errors) => {
  const username = strField(["body", "username"], fields["username"], errors)
  const duration = intField(["body", "duration"], fields["duration"], errors)
  return {
    body: { username, duration },
    order: { kind: "premium", recipient: username, months: duration as 3 | 6 | 12 }
  }
}

export const ShopperRoutes = Layer.effectDiscard(
  Effect.gen(function* () {
    const router = yield* HttpRouter.HttpRouter
    const sessions = yield* WebSessions
    const config = yield* HttpConfig
    const orders = yield* OrderService
    const idempotency = yield* Idempotency

    const place = (endpoint: string, parse: Parse) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const fields = yield* formFields(request)
        const errors: Array<ValidationItem> = []
        const { body, order } = parse(fields, errors)
        if (errors.length > 0) return validationFailed(errors)
        const who = yield* requireUser(sessions, config.publicUrl)
        if ("refused" in who) return who.refused
        const userId = who.ok
        const key = request.headers["idempotency-key"]
        return yield* idempotent(
          key,
          { user: userId },
          endpoint,
          body,
          Dto.OrderCreated,
          Effect.map(orders.place(userId, order), ({ order: created, balanceAfter }) => ({
            ok: true,
            order: orderOut(created),
            balance_uzs: balanceAfter,
            sandbox: config.sandbox
          }))
        ).pipe(
          Effect.provideService(Idempotency, idempotency),
          Effect.map((answer) => json(answer)),
          Effect.catch(errorResponse)
        )
      })

    // Validation comes before authentication, as on every /v2 route.
    yield* router.add("POST", "/v2/orders/stars", place("POST /v2/orders/stars", stars))
    yield* router.add("POST", "/v2/orders/premium", place("POST /v2/orders/premium", premium))
  })
)
