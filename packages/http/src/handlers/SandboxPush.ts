import { SandboxPushInbox, subscribeToSandboxInbox } from "@resale/push/SandboxPushInbox.ts"
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

export const SandboxHandlers = HttpApiBuilder.group(Api, "sandbox", (handlers) =>
  Effect.gen(function* () {
    const config = yield* HttpConfig
    const inbox = yield* SandboxPushInbox
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
          yield* subscribeToSandboxInbox(userId, request.headers["host"] ?? "", config.publicUrl).pipe(
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
