import { Effect, Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { HandlerErrors, HTTPValidationError, NotFound } from "./Errors.ts"
import { IdempotencyHeader } from "@resale/webkit/Fields.ts"
import { OperatorSession } from "./Middleware.ts"
import { AdjustForm, AssignForm } from "@resale/webkit/FormPayloads.ts"
import {
  adjustTarget,
  type PanelInputInvalid,
  type PanelRecordNotFound,
  PaymentPath
} from "@resale/webkit/PanelFormInput.ts"
import { CheckBeforeAuth, PreAuthCheck } from "./PreAuthCheck.ts"

/**
 * The panel's money-moving forms (admin session cookie), outside the served document. Their input is
 * checked before sign-in, as always: the declared path, header and form by the request validator
 * (FastAPI's 422 list), then what the schemas cannot say (`adjustTarget`: a path naming no user is a
 * 404, the one-time key) by `PreAuthCheck`, all before any 401.
 *
 *   POST /v2/admin/users/:user_id/adjust          form: amount_uzs (signed), reason; Idempotency-Key required
 *   POST /v2/admin/payments/:payment_id/assign    form: topup_id, confirm_duplicate?; credits that top-up
 */
/** A panel form's refusal as its HTTP answer: FastAPI's 422 list, or a 404 with its code. */
export const panelRefusal = (refusal: PanelInputInvalid | PanelRecordNotFound) =>
  refusal._tag === "PanelInputInvalid"
    ? new HTTPValidationError({ detail: refusal.items })
    : new NotFound({ detail: refusal.detail, code: refusal.code })

/** The correction's check before sign-in, answered as its handler answers. */
const adjustCheck = (input: Parameters<typeof adjustTarget>[0]) =>
  adjustTarget(input).pipe(Effect.asVoid, Effect.mapError(panelRefusal))

export class PanelFormsApi extends HttpApiGroup.make("panelForms")
  .add(
    HttpApiEndpoint.post("adjust", "/v2/admin/users/:user_id/adjust", {
      // Text: a path naming no user is a 404 (`adjustTarget`), not a 422.
      params: { user_id: Schema.String },
      headers: IdempotencyHeader,
      payload: AdjustForm,
      success: Schema.Struct({
        user_id: Schema.Int,
        entry_id: Schema.Int,
        amount_uzs: Schema.Int,
        balance_uzs: Schema.Int
      }),
      error: [...HandlerErrors, HTTPValidationError]
    }).annotate(CheckBeforeAuth, adjustCheck),
    HttpApiEndpoint.post("assign", "/v2/admin/payments/:payment_id/assign", {
      params: PaymentPath.fields,
      payload: AssignForm,
      success: Schema.Struct({
        payment_id: Schema.Int,
        status: Schema.String,
        topup_id: Schema.NullOr(Schema.Int),
        duplicate: Schema.Boolean
      }),
      error: [...HandlerErrors, HTTPValidationError]
    })
  )
  .middleware(OperatorSession)
  .middleware(PreAuthCheck)
  .annotate(OpenApi.Exclude, true) {}

/** Method and path of each form, for the tests that walk the panel's routes. */
export const PANEL_FORM_ROUTES = Object.values(PanelFormsApi.endpoints).map((e) => ({ method: e.method, path: e.path }))
