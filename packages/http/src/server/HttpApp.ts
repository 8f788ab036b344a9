import { CoreServices } from "@resale/core/CoreServices.ts"
import { OperatorStatus } from "@resale/core/status/OperatorStatus.ts"
import { Receipts } from "@resale/core/ports"
import { Notifications } from "@resale/core/outbox/Notifications.ts"
import { RecipientInfo } from "@resale/core/accounts/RecipientInfo.ts"
import { Accounts } from "@resale/core/accounts/Accounts.ts"
import { Idempotency } from "@resale/core/idempotency/Idempotency.ts"
import { Balances } from "@resale/core/ledger/Balances.ts"
import { OrderService } from "@resale/core/orders/OrderService.ts"
import { Payments } from "@resale/core/payments/Payments.ts"
import { Reports } from "@resale/core/reports/Reports.ts"
import { PricingService } from "@resale/core/pricing/PricingService.ts"
import { SessionService } from "@resale/core/sessions/SessionService.ts"
import { TicketService } from "@resale/core/tickets/TicketService.ts"
import { TopupService } from "@resale/core/topups/TopupService.ts"
import { Throttling } from "@resale/core/throttles/Throttling.ts"
import { AccountCaps } from "@resale/core/caps/CapSettings.ts"
import { PushPolicy, pushPolicyOf } from "@resale/core/push/PushEndpointRules.ts"
import { Context, Effect, FileSystem, Layer } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { HttpApiBuilder, OpenApi } from "effect/http-api"
import { ApiDocument } from "@resale/webkit/ApiDocument.ts"
import { SqlClient } from "effect/sql/SqlClient"
import { Api, OPENAPI_PATH } from "../api/Api.ts"
import { SandboxOnly } from "../api/SandboxApi.ts"
import { SandboxPushInbox } from "@resale/push/SandboxPushInbox.ts"
import { AdminTokenAuth, ApiKeyAuth, OperatorSession, RequestValidation, UserSession } from "../api/Middleware.ts"
import { AuthMiddlewareLayer } from "../auth/AuthMiddleware.ts"
import { OperatorTokenGuard } from "@resale/webkit/OperatorTokenGuard.ts"
import { WebSessions } from "@resale/webkit/WebSessions.ts"
import { BotWebhook } from "../bot/BotWebhook.ts"
import { TelegramBotApi } from "../bot/TelegramBotApi.ts"
import { AccountHandlers } from "../handlers/Account.ts"
import { AdminHandlers } from "../handlers/Admin.ts"
import { AdminProgrammaticHandlers, PricingHandlers, ProgrammaticHandlers } from "../handlers/Programmatic.ts"
import { ListsHandlers } from "../handlers/Lists.ts"
import { SandboxHandlers, SandboxOnlyLayer } from "../handlers/SandboxPush.ts"
import { ShopperHandlers } from "../handlers/Shopper.ts"
import { OperatorListsHandlers } from "../handlers/OperatorLists.ts"
import { ReportsHandlers } from "../handlers/Reports.ts"
import { PeopleHandlers } from "../handlers/People.ts"
import { BankPaymentsHandlers } from "../handlers/BankPayments.ts"
import { PanelFormsHandlers } from "../handlers/PanelForms.ts"
import { PreAuthCheck } from "../api/PreAuthCheck.ts"
import { PreAuthCheckLayer } from "../auth/PreAuthCheckLayer.ts"
import { WebhooksHandlers } from "../handlers/Webhooks.ts"
import { Webhooks } from "@resale/core/webhooks/Webhooks.ts"
import { ApiKeyRotation } from "@resale/core/accounts/ApiKeyRotation.ts"
import { WebhookOversight } from "@resale/core/webhooks/WebhookOversight.ts"
import { WebhookPolicy } from "@resale/core/webhooks/WebhookTargets.ts"
import { AdminLoginHandlers, PublicHandlers } from "../handlers/Public.ts"
import { DIRECT_OPENAPI_PATH, directOpenApi } from "../direct/DirectOpenApi.ts"
import { GiftCatalog } from "@resale/webkit/GiftCatalog.ts"
import { PricingCache } from "@resale/webkit/PricingCache.ts"
import { fastApiFallback, type KnownRoute } from "../validation/FastApiFallback.ts"
import { RequestValidatorLayer } from "../validation/RequestValidator.ts"
import { BodyLimit } from "./BodyLimit.ts"
import { FastPathRoutes } from "./FastPaths.ts"
import { HttpConfig } from "@resale/webkit/HttpConfig.ts"
import { SecurityHeaders } from "./SecurityHeaders.ts"
import { buildWithOnly } from "./LeanServe.ts"

/** Every method and path the HttpApi serves, for the 405 answer. */
export const apiRoutes = (): Array<KnownRoute> =>
  Object.values(Api.groups).flatMap((group) =>
    Object.values(group.endpoints).map((endpoint) => ({ method: endpoint.method, path: endpoint.path }))
  )

/**
 * The HttpApi groups, each built over only the services it uses (the compiler checks the lists):
 * a group's context is merged into every request it answers, so it is kept small.
 */
const Handlers = Layer.mergeAll(
  buildWithOnly(PublicHandlers, [
    Accounts,
    BotWebhook,
    HttpConfig,
    RequestValidation,
    SessionService,
    TopupService,
    WebSessions
  ]),
  buildWithOnly(AdminLoginHandlers, [HttpConfig, OperatorTokenGuard, RequestValidation, WebSessions]),
  buildWithOnly(PricingHandlers, [HttpConfig, PricingCache, RequestValidation]),
  buildWithOnly(AccountHandlers, [
    Accounts,
    ApiKeyRotation,
    Webhooks,
    Balances,
    FileSystem.FileSystem,
    GiftCatalog,
    HttpConfig,
    Idempotency,
    OrderService,
    PricingService,
    Notifications,
    Receipts,
    SessionService,
    TicketService,
    TopupService,
    UserSession,
    RequestValidation,
    WebSessions
  ]),
  buildWithOnly(AdminHandlers, [
    HttpConfig,
    Idempotency,
    OperatorStatus,
    OrderService,
    PricingCache,
    PricingService,
    TicketService,
    TopupService,
    OperatorSession,
    RequestValidation
  ]),
  buildWithOnly(ProgrammaticHandlers, [
    Accounts,
    ApiKeyAuth,
    Balances,
    GiftCatalog,
    HttpConfig,
    Idempotency,
    OrderService,
    PricingService,
    RecipientInfo,
    RequestValidation,
    TopupService
  ]),
  buildWithOnly(ListsHandlers, [ApiKeyAuth, OrderService, RequestValidation, TopupService]),
  buildWithOnly(WebhooksHandlers, [ApiKeyAuth, RequestValidation, Webhooks]),
  buildWithOnly(AdminProgrammaticHandlers, [AdminTokenAuth, Idempotency, Payments, RequestValidation, TopupService]),
  buildWithOnly(ShopperHandlers, [
    Balances,
    HttpConfig,
    Idempotency,
    OrderService,
    RequestValidation,
    UserSession,
    WebSessions
  ]),
  buildWithOnly(SandboxHandlers, [
    HttpConfig,
    Notifications,
    RequestValidation,
    SandboxOnly,
    SandboxPushInbox,
    UserSession,
    WebSessions
  ]),
  buildWithOnly(OperatorListsHandlers, [OperatorSession, OrderService, RequestValidation, TicketService, TopupService]),
  buildWithOnly(ReportsHandlers, [OperatorSession, Reports, RequestValidation]),
  buildWithOnly(PeopleHandlers, [
    Accounts,
    Balances,
    OperatorSession,
    OrderService,
    RequestValidation,
    TicketService,
    TopupService,
    WebhookOversight
  ]),
  buildWithOnly(BankPaymentsHandlers, [OperatorSession, Payments, RequestValidation, TopupService]),
  buildWithOnly(PanelFormsHandlers, [
    Balances,
    OperatorSession,
    Payments,
    PreAuthCheck,
    RequestValidation,
    TopupService
  ])
)

const ApiRoutes = HttpApiBuilder.layer(Api, { openapiPath: OPENAPI_PATH }).pipe(
  Layer.provide(Handlers),
  Layer.provide([RequestValidatorLayer, AuthMiddlewareLayer, SandboxOnlyLayer, PreAuthCheckLayer])
)

/** The contract's OpenAPI document for the web UI's API page (`@resale/webkit/ApiDocument.ts`). */
const ApiDocumentLive = Layer.effect(ApiDocument)(
  Effect.sync(() => ApiDocument.of({ document: OpenApi.fromApi(Api) as unknown as Record<string, unknown> }))
)

/** Whether the database answers (`/healthz`). */
export class DatabasePing extends Context.Service<DatabasePing, { readonly ping: Effect.Effect<boolean> }>()(
  "http/server/DatabasePing"
) {
  static readonly layer = Layer.effect(DatabasePing)(
    Effect.gen(function* () {
      const sql = yield* SqlClient
      return DatabasePing.of({
        ping: sql`SELECT 1 AS ok`.pipe(
          Effect.timeout("3 seconds"),
          Effect.as(true),
          Effect.catchCause(() => Effect.succeed(false))
        )
      })
    })
  )
  static readonly layerAlwaysUp = Layer.succeed(DatabasePing)(DatabasePing.of({ ping: Effect.succeed(true) }))
}

/** 200 while the database answers, 503 otherwise; and the direct surface's OpenAPI document. */
const HealthRoute = HttpRouter.use((router) =>
  Effect.gen(function* () {
    const db = yield* DatabasePing
    yield* router.add(
      "GET",
      "/healthz",
      Effect.map(db.ping, (up) =>
        up
          ? HttpServerResponse.jsonUnsafe({ status: "ok" })
          : HttpServerResponse.jsonUnsafe({ status: "database unreachable" }, { status: 503 })
      )
    )
    yield* router.add("GET", DIRECT_OPENAPI_PATH, Effect.succeed(HttpServerResponse.jsonUnsafe(directOpenApi)))
  })
)

/** The use cases and the http package's own services over the storage ports (`@resale/store`). */
export const HttpServices = Layer.mergeAll(
  WebSessions.layer,
  BotWebhook.layer,
  PricingCache.layer,
  OperatorTokenGuard.layer,
  RecipientInfo.layer,
  OperatorStatus.layer,
  Layer.mergeAll(ApiKeyRotation.layer, WebhookOversight.layer).pipe(Layer.provideMerge(Webhooks.layer))
).pipe(
  // Webhook targets: loopback only in sandbox with WEBHOOKS_ALLOW_LOOPBACK.
  Layer.provide(
    Layer.effect(
      WebhookPolicy,
      Effect.map(Effect.service(HttpConfig), (s) => ({
        allowLoopback: s.sandbox && s.webhooksAllowLoopback,
        sandbox: s.sandbox
      }))
    )
  ),
  Layer.provide(TelegramBotApi.layer),
  // The sandbox's push receiver: one instance for its routes and the sandbox page (written only in sandbox mode).
  Layer.provideMerge(
    Layer.unwrap(Effect.map(Effect.service(HttpConfig), (s) => SandboxPushInbox.layerWith(s.dataDir)))
  ),
  // Limits every server counts together (operator and metrics tokens, the direct surface's rate).
  Layer.provideMerge(Throttling.layer),
  Layer.provideMerge(CoreServices),
  // Per-account caps (CAP_* settings) and push hosts (PUSH_ALLOWED_HOSTS), core README.
  Layer.provide(
    Layer.effect(
      AccountCaps,
      Effect.map(Effect.service(HttpConfig), (s) => s.accountCaps)
    )
  ),
  Layer.provide(
    Layer.effect(
      PushPolicy,
      Effect.map(Effect.service(HttpConfig), (s) => pushPolicyOf(s.pushAllowedHosts, s.sandbox, s.publicUrl))
    )
  )
)

/**
 * All routes of the server: the /v2 HttpApi (+ its OpenAPI document, the web UI's own JSON routes among
 * its groups, kept out of the document), /healthz, any extra routes
 * (the direct purchase surface) and FastAPI's 404/405 answers for everything else.
 */
export const httpApp = <E, R>(
  extra: { readonly routes: Layer.Layer<never, E, R>; readonly known: ReadonlyArray<KnownRoute> } = {
    routes: Layer.empty as Layer.Layer<never, E, R>,
    known: []
  }
) =>
  Layer.mergeAll(
    ApiRoutes,
    HealthRoute,
    extra.routes,
    fastApiFallback([
      ...apiRoutes(),
      { method: "GET", path: OPENAPI_PATH },
      { method: "GET", path: "/healthz" },
      { method: "GET", path: DIRECT_OPENAPI_PATH },
      ...extra.known
    ])
  ).pipe(
    Layer.provide(ApiDocumentLive),
    // Routes the server's fast paths answer without the pipeline (when the server has them).
    Layer.provideMerge(FastPathRoutes),
    // An oversized body is refused before anything else looks at the request.
    Layer.provideMerge(BodyLimit),
    // Outermost of all, so every answer (a 413 included) gets no-store and HSTS.
    Layer.provideMerge(SecurityHeaders)
  )
