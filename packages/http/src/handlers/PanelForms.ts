import {
  adjustBalance,
  adjustOf,
  adjustTarget,
  assignOf,
  assignPayment,
  PanelInputInvalid,
  PanelRecordNotFound
} from "@resale/webkit/PanelFormInput.ts"
import type { DomainError } from "@resale/webkit/DomainErrors.ts"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../api/Api.ts"
import { panelRefusal } from "../api/PanelFormsApi.ts"
import { mapErrors } from "./ErrorMapping.ts"

type Refusal = PanelInputInvalid | PanelRecordNotFound

const isRefusal = (e: unknown): e is Refusal => e instanceof PanelInputInvalid || e instanceof PanelRecordNotFound

/** The form's own refusals as theirs, the use case's errors through `mapErrors`. */
const answered = <A, E extends DomainError | Refusal, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.catch(effect, (e: E) =>
    isRefusal(e) ? Effect.fail(panelRefusal(e)) : mapErrors(Effect.fail(e as Exclude<E, Refusal>))
  )

/** The panel's money-moving forms (`api/PanelFormsApi.ts`); their input was decoded and checked before sign-in. */
export const PanelFormsHandlers = HttpApiBuilder.group(Api, "panelForms", (handlers) =>
  Effect.succeed(
    handlers
      .handle("adjust", ({ params, payload, request }) =>
        answered(
          Effect.flatMap(adjustTarget({ params, headers: request.headers }), (target) =>
            adjustBalance(adjustOf(payload, target))
          )
        )
      )
      .handle("assign", ({ params, payload }) => answered(assignPayment(assignOf(params.payment_id, payload))))
  )
)
