import { Notifications } from "@resale/core/outbox/Notifications.ts"
import { SANDBOX_INBOX_PATH } from "@resale/core/push/PushEndpointRules.ts"
import { SandboxPushInbox } from "@resale/push/SandboxPushInbox.ts"
import { Effect, Layer } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { HttpConfig } from "@resale/webkit/HttpConfig.ts"
import { Api } from "../api/Api.ts"
import { NotFound } from "../api/Errors.ts"
import { CurrentUser } from "../api/Middleware.ts"
import { PushInboxRefused, SandboxOnly } from "../api/SandboxApi.ts"

export const SandboxOnlyLayer = Layer.effect(SandboxOnly)(
  Effect.map(Effect.service(HttpConfig), (config) =>
    config.sandbox
      ? (httpEffect) => httpEffect
      : () => Effect.fail(new NotFound({ detail: "Not Found", code: "not_found" }))
  )
)

/** Delivered by the worker on this machine: the address the shopper reached when it is loopback, else PUBLIC_URL. */
const inboxBase = (host: string, publicUrl: string) =>
  /^(127\.0\.0\.1|localhost|\[::1\])(:\d{1,5})?$/.test(host) ? `http://${host}` : publicUrl.replace(/\/$/, "")

export const SandboxHandlers = HttpApiBuilder.group(Api, "sandbox", (handlers) =>
  Effect.gen(function* () {
    const config = yield* HttpConfig
    const inbox = yield* SandboxPushInbox
    const notifications = yield* Notifications
    return handlers
      .handle("pushInbox", () =>
        Effect.gen(function* () {
          const { userId } = yield* CurrentUser
          return yield* inbox.received(userId)
        })
      )
      .handle("openPushInbox", ({ request }) =>
        Effect.gen(function* () {
          const { userId } = yield* CurrentUser
          const base = inboxBase(request.headers["host"] ?? "", config.publicUrl)
          const subscription = yield* inbox.open(userId, `${base}${SANDBOX_INBOX_PATH}`)
          yield* notifications.subscribePush(userId, subscription).pipe(
            // The server's own receiver is always allowed in sandbox mode; a refusal means PUBLIC_URL is not this server.
            Effect.catchTag("PushSubscriptionInvalid", (e) =>
              Effect.fail(new PushInboxRefused({ detail: e.message, code: "push_subscription_invalid" }))
            )
          )
          return { subscribed: true }
        })
      )
      .handle("pushDelivery", ({ params, request }) =>
        Effect.gen(function* () {
          const body = Buffer.from(yield* Effect.orElseSucceed(request.arrayBuffer, () => new ArrayBuffer(0)))
          const verdict = yield* inbox.deliver(
            params.id,
            request.headers["authorization"],
            request.headers["content-encoding"],
            body
          )
          return HttpServerResponse.empty({ status: verdict === "ok" ? 201 : verdict === "unknown" ? 404 : 400 })
        })
      )
  })
)
