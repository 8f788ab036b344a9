import { Accounts } from "@resale/core/accounts/Accounts.ts"
import { ApiKeyRotation } from "@resale/core/accounts/ApiKeyRotation.ts"
import { Balances } from "@resale/core/ledger/Balances.ts"
import { OrderService } from "@resale/core/orders/OrderService.ts"
import { PricingService } from "@resale/core/pricing/PricingService.ts"
import { TicketService } from "@resale/core/tickets/TicketService.ts"
import { TopupService } from "@resale/core/topups/TopupService.ts"
import { Notifications } from "@resale/core/outbox/Notifications.ts"
import { Webhooks } from "@resale/core/webhooks/Webhooks.ts"
import { Effect, FileSystem, Redacted } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../api/Api.ts"
import * as Dto from "@resale/wire/Dtos.ts"
import { BadRequest } from "../api/Errors.ts"
import { CurrentUser } from "../api/Middleware.ts"
import { GiftCatalog } from "@resale/webkit/GiftCatalog.ts"
import { HttpConfig } from "@resale/webkit/HttpConfig.ts"
import { mapErrors } from "./ErrorMapping.ts"
import { idempotent } from "./Idempotent.ts"
import { buyGift, createTopup, upgradeInfoTier, uploadReceipt } from "@resale/webkit/AccountActions.ts"
import { giftsOut, messageOut, orderOut, pricingOut, ticketOut, topupOut, userOut } from "./Wire.ts"

const me = { kind: "user" as const }

/** The signed-in user's account routes. Each handler calls one core service and maps its errors. */
export const AccountHandlers = HttpApiBuilder.group(Api, "account", (handlers) =>
  Effect.gen(function* () {
    const accounts = yield* Accounts
    const rotation = yield* ApiKeyRotation
    const webhooks = yield* Webhooks
    const balances = yield* Balances
    const topups = yield* TopupService
    const orders = yield* OrderService
    const pricing = yield* PricingService
    const tickets = yield* TicketService
    const notifications = yield* Notifications
    const gifts = yield* GiftCatalog
    const config = yield* HttpConfig
    const sandbox = config.sandbox

    const giftList = Effect.gen(function* () {
      return giftsOut(yield* gifts.list, yield* pricing.get, sandbox)
    })

    return handlers
      .handle("dashboard", () =>
        Effect.gen(function* () {
          const { userId } = yield* CurrentUser
          const user = yield* accounts.find(userId).pipe(Effect.orDie)
          const data = {
            user: userOut(user),
            balance_uzs: yield* balances.balance(userId),
            pricing: pricingOut(yield* pricing.get, sandbox),
            topups: (yield* topups.listOwn(userId, { offset: 0, limit: 10 })).items.map(topupOut),
            orders: (yield* orders.listOwn(userId, { offset: 0, limit: 10 })).items.map(orderOut),
            sandbox
          }
          return data
        })
      )
      .handle("rotateApiKey", ({ payload }) =>
        Effect.gen(function* () {
          const { userId } = yield* CurrentUser
          const { apiKey, webhooksRemoved } = yield* rotation.rotate(userId, { keepWebhooks: payload.keep_webhooks })
          const key = Redacted.value(apiKey)
          return { api_key: key, prefix: key.slice(0, 9), webhooks_removed: webhooksRemoved }
        }).pipe(mapErrors)
      )
      .handle("ownWebhooks", () =>
        Effect.gen(function* () {
          const { userId } = yield* CurrentUser
          return { webhooks: (yield* webhooks.list(userId)).map(Dto.webhookEndpointOut) }
        })
      )
      .handle("deleteOwnWebhook", ({ params }) =>
        Effect.gen(function* () {
          const { userId } = yield* CurrentUser
          yield* webhooks.remove(userId, params.webhook_id)
          return { id: params.webhook_id, deleted: true }
        }).pipe(mapErrors)
      )
      .handle("balance", () =>
        Effect.gen(function* () {
          const { userId } = yield* CurrentUser
          return { balance_uzs: yield* balances.balance(userId), sandbox }
        })
      )
      .handle("createTopup", ({ headers, payload }) =>
        Effect.gen(function* () {
          const { userId } = yield* CurrentUser
          return yield* createTopup(idempotent, "POST /v2/balance/top-up", userId, headers["idempotency-key"], payload)
        }).pipe(mapErrors)
      )
      .handle("cancelTopup", ({ params }) =>
        Effect.gen(function* () {
          const { userId } = yield* CurrentUser
          return topupOut(yield* topups.cancel(userId, params.topup_id))
        }).pipe(mapErrors)
      )
      .handle("uploadReceipt", ({ headers, payload }) =>
        Effect.gen(function* () {
          const { userId } = yield* CurrentUser
          const fs = yield* FileSystem.FileSystem
          // A larger file never gets here (the multipart limit), and the core checks the same setting.
          const bytes = yield* fs.readFile(payload.receipt.path).pipe(Effect.orDie)
          return yield* uploadReceipt(idempotent, userId, headers["idempotency-key"], payload.amount_uzs, bytes)
        }).pipe(mapErrors)
      )
      .handle("topupStatus", () =>
        Effect.gen(function* () {
          const { userId } = yield* CurrentUser
          const page = yield* topups.listOwn(userId, { status: ["pending", "review"], offset: 0, limit: 20 })
          return { balance_uzs: yield* balances.balance(userId), topups: page.items.map(topupOut), sandbox }
        })
      )
      .handle("ordersPage", () =>
        Effect.gen(function* () {
          const { userId } = yield* CurrentUser
          const page = yield* orders.listOwn(userId, { offset: 0, limit: 20 })
          const data = { orders: page.items.map(orderOut), total: page.total, offset: 0, limit: 20 }
          return data
        })
      )
      .handle("ordersList", ({ query }) =>
        Effect.gen(function* () {
          const { userId } = yield* CurrentUser
          if (query.offset < 0)
            return yield* new BadRequest({
              detail: "offset must be 0 or more",
              code: "page_invalid",
              params: { field: "offset" }
            })
          if (query.limit < 1)
            return yield* new BadRequest({
              detail: "limit must be 1 or more",
              code: "page_invalid",
              params: { field: "limit" }
            })
          const limit = Math.min(query.limit, 100)
          const page = yield* orders.listOwn(userId, { offset: query.offset, limit })
          return { orders: page.items.map(orderOut), total: page.total, offset: query.offset, limit }
        })
      )
      .handle("giftsPage", () => giftList)
      .handle("buyGift", ({ headers, payload }) =>
        Effect.gen(function* () {
          const { userId } = yield* CurrentUser
          return yield* buyGift(idempotent, userId, headers["idempotency-key"], payload)
        }).pipe(mapErrors)
      )
      .handle("upgradeInfoTier", ({ headers, payload }) =>
        Effect.gen(function* () {
          const { userId } = yield* CurrentUser
          return yield* upgradeInfoTier(idempotent, userId, headers["idempotency-key"], payload)
        }).pipe(mapErrors)
      )
      .handle("tickets", () =>
        Effect.gen(function* () {
          const { userId } = yield* CurrentUser
          const page = yield* tickets.listOwn(userId, { offset: 0, limit: 100 })
          const data = { tickets: page.items.map(ticketOut), total: page.total }
          return data
        })
      )
      .handle("createTicket", ({ payload }) =>
        Effect.gen(function* () {
          const { userId } = yield* CurrentUser
          const detail = yield* tickets.create(userId, { subject: payload.subject, body: payload.body })
          return { ticket: ticketOut(detail.ticket), messages: detail.messages.map(messageOut) }
        }).pipe(mapErrors)
      )
      .handle("ticket", ({ params }) =>
        Effect.gen(function* () {
          const { userId } = yield* CurrentUser
          const detail = yield* tickets.detail({ ...me, userId }, params.ticket_id)
          const data = { ticket: ticketOut(detail.ticket), messages: detail.messages.map(messageOut) }
          return data
        }).pipe(mapErrors)
      )
      .handle("pollTicket", ({ params, query }) =>
        Effect.gen(function* () {
          const { userId } = yield* CurrentUser
          const viewer = { ...me, userId }
          const messages = yield* tickets.poll(viewer, params.ticket_id, query.after)
          const detail = yield* tickets.detail(viewer, params.ticket_id)
          return {
            ticket_id: params.ticket_id,
            status: detail.ticket.status,
            messages: messages.map(messageOut),
            cursor: messages.length > 0 ? messages[messages.length - 1]!.id : query.after
          }
        }).pipe(mapErrors)
      )
      .handle("replyTicket", ({ params, payload }) =>
        Effect.gen(function* () {
          const { userId } = yield* CurrentUser
          return messageOut(yield* tickets.reply(userId, params.ticket_id, payload.body))
        }).pipe(mapErrors)
      )
      .handle("pushSubscribe", ({ payload }) =>
        Effect.gen(function* () {
          const { userId } = yield* CurrentUser
          yield* notifications.subscribePush(userId, payload)
          return { ok: true }
        }).pipe(mapErrors)
      )
  })
)
