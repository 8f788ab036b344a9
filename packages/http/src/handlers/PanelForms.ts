import {
  adjustBalance,
  adjustInput,
  assignInput,
  assignPayment,
  PanelInputInvalid,
  PanelRecordNotFound,
  type RawInput
} from "@resale/webkit/PanelFormInput.ts"
import type { DomainError } from "@resale/webkit/DomainErrors.ts"
import { formFields } from "@resale/webkit/PanelFields.ts"
import { Effect } from "effect"
import type { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../api/Api.ts"
import { panelRefusal } from "../api/PanelFormsApi.ts"
import { mapErrors } from "./ErrorMapping.ts"

const rawOf = (request: HttpServerRequest.HttpServerRequest, params: RawInput["params"]) =>
  Effect.map(formFields(request), (form): RawInput => ({ params, form, headers: request.headers }))

type Refusal = PanelInputInvalid | PanelRecordNotFound

const isRefusal = (e: unknown): e is Refusal => e instanceof PanelInputInvalid || e instanceof PanelRecordNotFound

/** The form's own refusals as theirs, the use case's errors through `mapErrors`. */
const answered = <A, E extends DomainError | Refusal, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.catch(effect, (e: E) =>
    isRefusal(e) ? Effect.fail(panelRefusal(e)) : mapErrors(Effect.fail(e as Exclude<E, Refusal>))
  )

/** The panel's money-moving forms (`api/PanelFormsApi.ts`); their input was checked before sign-in. */
export const PanelFormsHandlers = HttpApiBuilder.group(Api, "panelForms", (handlers) =>
  Effect.succeed(
    handlers
      .handle("adjust", ({ params, request }) =>
        answered(Effect.flatMap(Effect.flatMap(rawOf(request, params), adjustInput), adjustBalance))
      )
      .handle("assign", ({ params, request }) =>
        answered(Effect.flatMap(Effect.flatMap(rawOf(request, params), assignInput), assignPayment))
      )
  )
)
