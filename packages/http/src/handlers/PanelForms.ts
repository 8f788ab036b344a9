import { AdjustmentInvalid } from "@resale/core"
import { Balances } from "@resale/core/ledger/Balances.ts"
import { Payments } from "@resale/core/payments/Payments.ts"
import { TopupService } from "@resale/core/topups/TopupService.ts"
import { Effect, Option } from "effect"
import type { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../api/Api.ts"
import { HTTPValidationError, NotFound } from "../api/Errors.ts"
import { adjustInput, assignInput } from "../api/PanelFormInput.ts"
import type { RawInput } from "../api/PreAuthCheck.ts"
import { formFields } from "../routes/RouteKit.ts"
import { mapErrors } from "./ErrorMapping.ts"

const rawOf = (request: HttpServerRequest.HttpServerRequest, params: RawInput["params"]) =>
  Effect.map(formFields(request), (form): RawInput => ({ params, form, headers: request.headers }))

/** The panel's money-moving forms (`api/PanelFormsApi.ts`); their input was checked before sign-in. */
export const PanelFormsHandlers = HttpApiBuilder.group(Api, "panelForms", (handlers) =>
  Effect.gen(function* () {
    const balances = yield* Balances
    const payments = yield* Payments
    const topups = yield* TopupService
    return handlers
      .handle("adjust", ({ params, request }) =>
        Effect.gen(function* () {
          const input = yield* Effect.flatMap(rawOf(request, params), adjustInput)
          const outcome = yield* balances
            .adjust({ userId: input.userId, amount: input.amount, reason: input.reason, key: `web:${input.key}` })
            .pipe(
              Effect.map(({ entry }) => entry),
              Effect.catchTag("AdjustmentInvalid", (e) => Effect.succeed(e)),
              mapErrors
            )
          // The core's own rule refused the amount: the same 422 as the form's rules give.
          if (outcome instanceof AdjustmentInvalid)
            return yield* new HTTPValidationError({
              detail: [
                {
                  type: "value_error",
                  loc: ["body", "amount_uzs"],
                  msg: `Value error, ${outcome.message}`,
                  input: input.amount
                }
              ]
            })
          const entry = outcome
          return {
            user_id: input.userId,
            entry_id: entry.id,
            amount_uzs: entry.amount,
            balance_uzs: entry.balanceAfter
          }
        })
      )
      .handle("assign", ({ params, request }) =>
        Effect.gen(function* () {
          const input = yield* Effect.flatMap(rawOf(request, params), assignInput)
          // A top-up number that does not exist (or cannot: 0 or below) is the operator's typo: a plain 404.
          if (Option.isNone(input.topupId))
            return yield* new NotFound({ detail: "Top-up not found", code: "topup_not_found" })
          const topupId = input.topupId.value
          const result = yield* topups
            .find({ kind: "operator" }, topupId)
            .pipe(
              Effect.andThen(payments.assign(input.paymentId, topupId, { confirmDuplicate: input.confirmDuplicate })),
              mapErrors
            )
          return {
            payment_id: result.payment.id,
            status: result.payment.status,
            topup_id: Option.match(result.topup, { onNone: () => result.payment.topupId, onSome: (t) => t.id }),
            duplicate: false
          }
        })
      )
  })
)
