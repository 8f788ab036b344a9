import { Payments } from "@resale/core/payments/Payments.ts"
import { TopupService } from "@resale/core/topups/TopupService.ts"
import { listPaging } from "@resale/wire/OperatorLists.ts"
import { paymentsList } from "@resale/wire/OperatorPayments.ts"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../api/Api.ts"
import { refusedAs422 } from "./QueryRefused.ts"

/** Bank payments for operators (`api/BankPaymentsApi.ts`); the payments page draws the same list. */
export const BankPaymentsHandlers = HttpApiBuilder.group(Api, "bankPayments", (handlers) =>
  Effect.gen(function* () {
    const payments = yield* Payments
    const topups = yield* TopupService
    return handlers.handle("payments", ({ query }) =>
      refusedAs422(paymentsList(payments, topups, { ...query, ...listPaging(query.offset, query.limit) }))
    )
  })
)
