import { ApiKeyRotation } from "@resale/core/accounts/ApiKeyRotation.ts"
import { TicketService } from "@resale/core/tickets/TicketService.ts"
import { TopupService } from "@resale/core/topups/TopupService.ts"
import { Webhooks } from "@resale/core/webhooks/Webhooks.ts"
import { buyGift, createTopup, placeOrder, upgradeInfoTier, uploadReceipt } from "@resale/webkit/AccountActions.ts"
import { Id, TicketIdPath, TopupIdPath } from "@resale/webkit/Fields.ts"
import {
  GiftForm,
  NewTicketForm,
  PremiumForm,
  ReceiptFields,
  ReplyForm,
  RotateForm,
  StarsForm,
  TierForm,
  TopupForm
} from "@resale/webkit/FormPayloads.ts"
import { HttpConfig } from "@resale/webkit/HttpConfig.ts"
import { idempotentWith } from "@resale/webkit/Idempotent.ts"
import { subscribeToSandboxInbox } from "@resale/push/SandboxPushInbox.ts"
import type * as Dto from "@resale/wire/Dtos.ts"
import { Effect, Redacted, Schema } from "effect"
import { codeLines, refusedLines } from "./ErrorText.ts"
import { type FormOutcome, FormRefused, form, money, NoParams, ok } from "./Forms.ts"
import type { Flash } from "./WebCookies.ts"

/**
 * The signed-in shopper's forms. Each calls core as its JSON route does (the money-moving ones
 * through the same code, `@resale/webkit/AccountActions.ts`, under the form's idempotency key) and
 * sends the browser to a page with a one-shot message (post/redirect/get).
 */
// A browser is sent a page, not a header: a replay is not marked.
const idempotent = idempotentWith(undefined)

/** A message about one top-up: once it is credited (or refused) the open page says so instead (app.js). */
const about = (topup: number, flash: Flash): Flash => ({ ...flash, topup })

const orderPlaced = (_: RegExpExecArray, answer: typeof Dto.OrderCreated.Type): FormOutcome => ({
  next: "/v2/orders",
  flash: ok("flash.orderPlaced", { id: String(answer.order.order_id), price: money(answer.order.price_uzs) })
})

const missingReceipt = new FormRefused({
  lines: refusedLines([{ type: "missing", loc: ["body", "receipt"] }])
})

export const SHOPPER_FORMS = [
  form({
    pattern: /^\/v2\/balance\/top-up$/,
    back: () => "/v2/dashboard#topup",
    who: "user",
    params: NoParams,
    fields: TopupForm,
    run: ({ userId, idempotencyKey, fields }) =>
      createTopup(idempotent, "POST /v2/balance/top-up", userId, idempotencyKey, fields),
    success: (_, created) => ({
      next: `/v2/dashboard#topup-${created.topup.topup_id}`,
      flash: about(
        created.topup.topup_id,
        ok("flash.topupCreated", { id: String(created.topup.topup_id), amount: money(created.payable_uzs) })
      )
    })
  }),
  form({
    pattern: /^\/v2\/balance\/top-up\/receipt$/,
    back: () => "/v2/dashboard#receipt",
    who: "user",
    params: NoParams,
    fields: Schema.Struct(ReceiptFields),
    run: ({ userId, idempotencyKey, fields, files }) =>
      Effect.gen(function* () {
        const receipt = files.get("receipt")
        if (receipt === undefined) return yield* missingReceipt
        // The body was read within `ReceiptLimits.body`; the core checks the file's own bound.
        const bytes = new Uint8Array(yield* Effect.promise(() => receipt.arrayBuffer()))
        return yield* uploadReceipt(idempotent, userId, idempotencyKey, fields.amount_uzs, bytes)
      }),
    success: (_, topup) => ({
      next: `/v2/dashboard#topup-${topup.topup_id}`,
      flash: about(topup.topup_id, ok("flash.receiptSent", { id: String(topup.topup_id) }))
    })
  }),
  form({
    pattern: /^\/v2\/balance\/topup\/(?<topup_id>\d+)\/cancel$/,
    back: () => "/v2/dashboard",
    who: "user",
    params: Schema.Struct({ topup_id: TopupIdPath }),
    fields: NoParams,
    run: ({ userId, params }) => TopupService.use((topups) => topups.cancel(userId, params.topup_id)),
    success: (m) => ({ next: "/v2/dashboard", flash: ok("flash.topupCancelled", { id: m[1]! }) })
  }),
  form({
    pattern: /^\/v2\/orders\/stars$/,
    back: () => "/v2/dashboard#buy-stars",
    who: "user",
    params: NoParams,
    fields: StarsForm,
    run: ({ userId, idempotencyKey, fields }) =>
      placeOrder(
        idempotent,
        "POST /v2/orders/stars",
        userId,
        idempotencyKey,
        fields,
        Effect.succeed({ kind: "stars", recipient: fields.username, stars: fields.amount })
      ),
    success: orderPlaced
  }),
  form({
    pattern: /^\/v2\/orders\/premium$/,
    back: () => "/v2/dashboard#buy-premium",
    who: "user",
    params: NoParams,
    fields: PremiumForm,
    run: ({ userId, idempotencyKey, fields }) =>
      placeOrder(
        idempotent,
        "POST /v2/orders/premium",
        userId,
        idempotencyKey,
        fields,
        Effect.succeed({ kind: "premium", recipient: fields.username, months: fields.duration })
      ),
    success: orderPlaced
  }),
  form({
    pattern: /^\/v2\/gifts\/buy$/,
    back: () => "/v2/gifts#send-gift",
    who: "user",
    params: NoParams,
    fields: GiftForm,
    run: ({ userId, idempotencyKey, fields }) => buyGift(idempotent, userId, idempotencyKey, fields),
    success: orderPlaced
  }),
  form({
    pattern: /^\/v2\/api-docs\/getinfo-upgrade$/,
    back: () => "/v2/api-docs#tiers",
    who: "user",
    params: NoParams,
    fields: TierForm,
    run: ({ userId, idempotencyKey, fields }) => upgradeInfoTier(idempotent, userId, idempotencyKey, fields),
    success: (_, upgrade) => ({
      next: "/v2/api-docs#tiers",
      flash: ok("flash.tierUpgraded", { tier: String(upgrade.tier) })
    })
  }),
  form({
    pattern: /^\/v2\/api-key\/rotate$/,
    back: () => "/v2/dashboard",
    who: "user",
    params: NoParams,
    fields: RotateForm,
    run: ({ userId, fields }) =>
      ApiKeyRotation.use((rotation) => rotation.rotate(userId, { keepWebhooks: fields.keep_webhooks })),
    // The key is shown once, on the page the browser is sent to.
    success: (_, { apiKey }) => ({ next: "/v2/api-key/new", newKey: Redacted.value(apiKey) })
  }),
  form({
    pattern: /^\/v2\/api-key\/webhooks\/(?<webhook_id>\d+)\/delete$/,
    back: () => "/v2/api-docs#webhooks",
    who: "user",
    params: Schema.Struct({ webhook_id: Id }),
    fields: NoParams,
    run: ({ userId, params }) => Webhooks.use((webhooks) => webhooks.remove(userId, params.webhook_id)),
    success: (m) => ({ next: "/v2/api-docs#webhooks", flash: ok("flash.webhookDeleted", { id: m[1]! }) })
  }),
  form({
    pattern: /^\/v2\/tickets\/new$/,
    back: () => "/v2/tickets#new-ticket",
    who: "user",
    params: NoParams,
    fields: NewTicketForm,
    run: ({ userId, fields }) => TicketService.use((tickets) => tickets.create(userId, fields)),
    success: (_, { ticket }) => ({
      next: `/v2/tickets/${ticket.id}`,
      flash: ok("flash.ticketCreated", { id: String(ticket.id) })
    })
  }),
  form({
    pattern: /^\/v2\/tickets\/(?<ticket_id>\d+)\/reply$/,
    back: (m) => `/v2/tickets/${m[1]}#reply`,
    who: "user",
    params: Schema.Struct({ ticket_id: TicketIdPath }),
    fields: ReplyForm,
    run: ({ userId, params, fields }) =>
      TicketService.use((tickets) => tickets.reply(userId, params.ticket_id, fields.body)),
    success: (m) => ({ next: `/v2/tickets/${m[1]}#conversation`, flash: ok("flash.replySent") })
  }),
  form({
    pattern: /^\/v2\/sandbox\/push\/inbox$/,
    back: () => "/v2/sandbox#push-inbox",
    who: "user",
    params: NoParams,
    fields: NoParams,
    before: () =>
      HttpConfig.use((config) =>
        config.sandbox ? Effect.void : Effect.fail(new FormRefused({ lines: codeLines("not_found") }))
      ),
    run: ({ userId, host }) =>
      HttpConfig.use((config) =>
        subscribeToSandboxInbox(userId, host, config.publicUrl).pipe(
          Effect.catchTag("PushSubscriptionInvalid", () =>
            Effect.fail(new FormRefused({ lines: codeLines("push_subscription_invalid") }))
          )
        )
      ),
    success: () => ({ next: "/v2/sandbox#push-inbox", flash: ok("flash.sandboxPushOn") })
  })
]
