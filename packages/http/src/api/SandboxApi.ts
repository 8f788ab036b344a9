import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiMiddleware, HttpApiSchema, OpenApi } from "effect/http-api"
import { ErrorCode } from "@resale/wire/ErrorCodes.ts"
import { NotFound } from "./Errors.ts"
import { Str } from "@resale/webkit/Fields.ts"
import { UserSession } from "./Middleware.ts"

/** Sandbox mode only: elsewhere every route of the group answers 404 like an unknown path, before any other check. */
export class SandboxOnly extends HttpApiMiddleware.Service<SandboxOnly>()("http/api/SandboxOnly", {
  error: NotFound
}) {}

/** The server's own push receiver refused the subscription (PUBLIC_URL is not this server). */
export class PushInboxRefused extends Schema.Error<PushInboxRefused>("PushInboxRefused")(
  { detail: Schema.String, code: ErrorCode },
  { httpApiStatus: 422 }
) {}

const SandboxInbox = Schema.Struct({
  subscribed: Schema.Boolean,
  notices: Schema.Array(
    Schema.Struct({ at: Schema.String, title: Schema.String, body: Schema.String, url: Schema.NullOr(Schema.String) })
  )
})

/**
 * The sandbox's push receiver (`@resale/push/SandboxPushInbox.ts`), for the page `/v2/sandbox`: a
 * person sees web push work without a real push service. The web UI's own routes, not in the
 * served document.
 *
 *   GET  /v2/sandbox/push/inbox        the signed-in shopper's inbox
 *   POST /v2/sandbox/push/inbox        subscribes the shopper's notifications to it
 *   POST /v2/sandbox/push/deliver/:id  a web push delivery (VAPID, aes128gcm): 201, 400 or 404, as a push service answers
 */
export class SandboxApi extends HttpApiGroup.make("sandbox")
  .add(
    HttpApiEndpoint.get("pushInbox", "/v2/sandbox/push/inbox", { success: SandboxInbox }),
    HttpApiEndpoint.post("openPushInbox", "/v2/sandbox/push/inbox", {
      success: Schema.Struct({ subscribed: Schema.Boolean }),
      error: PushInboxRefused
    })
  )
  .middleware(UserSession)
  .add(
    HttpApiEndpoint.post("pushDelivery", "/v2/sandbox/push/deliver/:id", {
      params: { id: Str },
      success: HttpApiSchema.Empty(201)
    })
  )
  .middleware(SandboxOnly)
  .annotate(OpenApi.Exclude, true) {}
