import { Context } from "effect"

/**
 * The /v2 contract's OpenAPI document, as the server serves it at /v2/openapi.json. The web UI's API
 * page draws its reference from it; the server's start entry provides it, so the web UI needs no
 * import of the contract.
 */
export class ApiDocument extends Context.Service<ApiDocument, { readonly document: Record<string, unknown> }>()(
  "webkit/ApiDocument"
) {}
