import { Notifications } from "@resale/core/outbox/Notifications.ts"
import { SANDBOX_INBOX_PATH } from "@resale/core/push/PushEndpointRules.ts"
import { SandboxPushInbox } from "@resale/push/SandboxPushInbox.ts"
import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { WebSessions } from "@resale/webkit/WebSessions.ts"
import { HttpConfig } from "@resale/webkit/HttpConfig.ts"
import { detail, json, requireUser } from "./RouteKit.ts"

/**
 * Sandbox mode only (not mounted in production): the push receiver that lets a person see web push
 * work without a real push service (`@resale/push/SandboxPushInbox.ts`), for the page `/v2/sandbox`.
 *
 *   GET  /v2/sandbox/push/inbox          -> { subscribed, notices: [{ at, title, body, url }] } (signed-in shopper)
 *   POST /v2/sandbox/push/inbox          -> subscribes the shopper's notifications to the inbox: { subscribed: true }
 *   POST /v2/sandbox/push/deliver/:id    <- a web push delivery (VAPID, aes128gcm): 201, 400 or 404, as a push service answers
 */
export const SANDBOX_ROUTES = [
  { method: "GET", path: "/v2/sandbox/push/inbox" },
  { method: "POST", path: "/v2/sandbox/push/inbox" },
  { method: "POST", path: "/v2/sandbox/push/deliver/:id" }
] as const

const routes = Layer.effectDiscard(
  Effect.gen(function* () {
    const router = yield* HttpRouter.HttpRouter
    const sessions = yield* WebSessions
    const config = yield* HttpConfig
    const inbox = yield* SandboxPushInbox
    const notifications = yield* Notifications

    yield* router.add(
      "GET",
      "/v2/sandbox/push/inbox",
      Effect.gen(function* () {
        const who = yield* requireUser(sessions, config.publicUrl)
        if ("refused" in who) return who.refused
        return json(yield* inbox.received(who.ok))
      })
    )

    yield* router.add(
      "POST",
      "/v2/sandbox/push/inbox",
      Effect.gen(function* () {
        const who = yield* requireUser(sessions, config.publicUrl)
        if ("refused" in who) return who.refused
        // Delivered by the worker on this machine: the address the shopper reached when it is loopback, else PUBLIC_URL.
        const request = yield* HttpServerRequest.HttpServerRequest
        const host = request.headers["host"] ?? ""
        const base = /^(127\.0\.0\.1|localhost|\[::1\])(:\d{1,5})?$/.test(host)
          ? `http://${host}`
          : config.publicUrl.replace(/\/$/, "")
        const subscription = yield* inbox.open(who.ok, `${base}${SANDBOX_INBOX_PATH}`)
        return yield* notifications.subscribePush(who.ok, subscription).pipe(
          Effect.as(json({ subscribed: true })),
          // The server's own receiver is always allowed in sandbox mode; a refusal means PUBLIC_URL is not this server.
          Effect.catchTag("PushSubscriptionInvalid", (e) =>
            Effect.succeed(detail(422, e.message, "push_subscription_invalid"))
          )
        )
      })
    )

    yield* router.add(
      "POST",
      "/v2/sandbox/push/deliver/:id",
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const id = (yield* HttpRouter.params)["id"] ?? ""
        const body = Buffer.from(yield* Effect.orElseSucceed(request.arrayBuffer, () => new ArrayBuffer(0)))
        const verdict = yield* inbox.deliver(
          id,
          request.headers["authorization"],
          request.headers["content-encoding"],
          body
        )
        const status = verdict === "ok" ? 201 : verdict === "unknown" ? 404 : 400
        return HttpServerResponse.empty({ status })
      })
    )
  })
)

/** Mounted in sandbox mode only; its inbox keeps its keys and notices under DATA_DIR. */
export const SandboxRoutes = Layer.unwrap(
  Effect.gen(function* () {
    const config = yield* HttpConfig
    if (!config.sandbox) return Layer.empty
    return routes.pipe(Layer.provide(SandboxPushInbox.layerWith(config.dataDir)))
  })
)
