import { Schema } from "effect"
import { HttpApi, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { HTTPValidationError, PayloadTooLarge, ServiceUnavailable, Unauthorized } from "../api/Errors.ts"

export const SANDBOX_FUND_PATH = "/v2/api/admin/sandbox/fund"

const FaucetFunded = Schema.Struct({
  address: Schema.String,
  funded_ton: Schema.String,
  balance_ton: Schema.String,
  balance_nanoton: Schema.String,
  network: Schema.String,
  sandbox: Schema.Boolean
})

/**
 * The sandbox faucet's contract: `POST /v2/api/admin/sandbox/fund` with `X-Admin-Token` and
 * `{"address", "amount_ton"}`. An API of its own, mounted by the start entry in sandbox mode only
 * (elsewhere the path answers 404 like any unknown one) and never in the served document.
 *
 * The body is decoded by its schema (`FaucetRequest.ts`) in the handler, once read within 4 KiB: the
 * address is checked by the chain adapter and the amount converted exactly from its decimal text,
 * with every invalid part in FastAPI's 422 records at once, before the token is checked; a missing
 * or wrong token is a 401. (Declared as the endpoint's payload, the body would be decoded before the
 * size limit and refused with the platform's records, not FastAPI's.)
 */
export class SandboxFaucetApi extends HttpApi.make("sandboxFaucet").add(
  HttpApiGroup.make("sandboxFaucet").add(
    HttpApiEndpoint.post("fund", SANDBOX_FUND_PATH, {
      success: FaucetFunded,
      error: [HTTPValidationError, Unauthorized, PayloadTooLarge, ServiceUnavailable]
    })
  )
) {}
