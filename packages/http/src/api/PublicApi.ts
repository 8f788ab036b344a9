import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "effect/http-api"
import * as Dto from "@resale/wire/Dtos.ts"
import { HandlerErrors, Unauthorized } from "./Errors.ts"
import { AnyJson, page, Str, TopupIdPath } from "@resale/webkit/Fields.ts"
import { LoginForm } from "@resale/webkit/FormPayloads.ts"

const Redirect = HttpApiSchema.Empty(303)

/** Routes anyone may call: home, sign-in and sign-out, the API reference, receipts (checked inside). */
export class PublicApi extends HttpApiGroup.make("public").add(
  HttpApiEndpoint.get("home", "/v2/", { success: page(Dto.Home) }),
  HttpApiEndpoint.get("telegramCallback", "/v2/auth/messenger/callback", {
    success: Redirect,
    error: Unauthorized
  }),
  HttpApiEndpoint.get("sandboxSignIn", "/v2/auth/sandbox", {
    query: { user: Schema.optionalKey(Str) },
    success: Redirect,
    error: HandlerErrors
  }),
  HttpApiEndpoint.get("logout", "/v2/logout", { success: Redirect }),
  HttpApiEndpoint.get("apiDocs", "/v2/api-docs", { success: page(Dto.ApiDocs) }),
  HttpApiEndpoint.get("receipt", "/v2/receipts/:topup_id", {
    params: { topup_id: TopupIdPath },
    success: Schema.Uint8Array.pipe(HttpApiSchema.asUint8Array({ contentType: "application/octet-stream" })),
    error: [Unauthorized, ...HandlerErrors]
  }),
  HttpApiEndpoint.post("botWebhook", "/v2/bot/webhook/:secret", {
    params: { secret: Str },
    headers: { "x-telegram-bot-api-secret-token": Schema.optionalKey(Str) },
    payload: AnyJson,
    success: Dto.Ok,
    error: HandlerErrors
  })
) {}

/** Operator sign-in and sign-out. */
export class AdminLoginApi extends HttpApiGroup.make("adminLogin").add(
  HttpApiEndpoint.get("loginPage", "/v2/admin/login", { success: page(Dto.LoginPage) }),
  HttpApiEndpoint.post("login", "/v2/admin/login", {
    payload: LoginForm,
    success: Redirect,
    error: [Unauthorized, ...HandlerErrors]
  }),
  HttpApiEndpoint.get("logout", "/v2/admin/logout", { success: Redirect })
) {}

/** Public programmatic call: current prices. */
export class PricingApi extends HttpApiGroup.make("pricing").add(
  HttpApiEndpoint.get("pricing", "/v2/api/pricing", { success: Dto.Pricing })
) {}
