import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { HTTPValidationError } from "./Errors.ts"
import { OptionalStr } from "@resale/webkit/Fields.ts"
import { OperatorSession } from "./Middleware.ts"

const NullableStr = Schema.NullOr(Schema.String)

const Candidate = Schema.Struct({
  topup_id: Schema.Int,
  user_id: Schema.Int,
  status: Schema.String,
  method: Schema.String,
  payable_uzs: Schema.Int,
  requested_uzs: Schema.Int,
  difference_uzs: Schema.Int,
  created_at: Schema.String,
  credited_on_receipt: Schema.NullOr(Schema.Int)
})

const PaymentsList = Schema.Struct({
  total: Schema.Int,
  offset: Schema.Int,
  limit: Schema.Int,
  payments: Schema.Array(
    Schema.Struct({
      payment_id: Schema.Int,
      amount_uzs: Schema.Int,
      card_last4: NullableStr,
      external_id: NullableStr,
      status: Schema.String,
      created_at: Schema.String,
      topup_id: Schema.NullOr(Schema.Int),
      topup_user_id: Schema.NullOr(Schema.Int),
      assigned: Schema.Boolean,
      candidates: Schema.Array(Candidate)
    })
  )
})

/**
 * Bank payments for operators (admin session cookie), outside the served document:
 *
 *   GET /v2/admin/payments?status=&from=&to=&amount=&offset=&limit=   (wire `paymentsList`; the filter is
 *       checked after sign-in, a bad one is FastAPI's 422 for the operator only)
 */
export class BankPaymentsApi extends HttpApiGroup.make("bankPayments")
  .add(
    HttpApiEndpoint.get("payments", "/v2/admin/payments", {
      query: {
        status: OptionalStr,
        from: OptionalStr,
        to: OptionalStr,
        amount: OptionalStr,
        offset: OptionalStr,
        limit: OptionalStr
      },
      success: PaymentsList,
      error: HTTPValidationError
    })
  )
  .middleware(OperatorSession)
  .annotate(OpenApi.Exclude, true) {}

/** Method and path of each route, for the tests that walk the panel's routes. */
export const BANK_PAYMENT_ROUTES = Object.values(BankPaymentsApi.endpoints).map((e) => ({
  method: e.method,
  path: e.path
}))
