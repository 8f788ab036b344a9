import type { DirectCode } from "./DirectErrors.ts"

/**
 * The building blocks of the direct document's operations (`DirectOpenApi.ts`): the failure body and
 * its codes, the error answers by status, and an operation of GET and POST from its fields.
 */
export type Json = Record<string, unknown>

// `CODES` has a row for every code `DirectErrors.ts` can answer: a new code without a row fails the type check.
const CODES: { readonly [C in DirectCode]: { readonly status: number; readonly description: string } } = {
  VALIDATION_ERROR: { status: 400, description: "Malformed JSON or a missing / invalid field." },
  INVALID_AMOUNT_MIN: { status: 400, description: "The amount is below the minimum." },
  INVALID_AMOUNT_MAX: { status: 400, description: "The amount is above the maximum." },
  WALLET_VM_ERROR: {
    status: 400,
    description:
      "The phrase is not a valid 12 or 24-word mnemonic, or its funded wallet is frozen or not the wallet_version asked for."
  },
  INSUFFICIENT_FUNDS: {
    status: 400,
    description:
      "The wallet cannot pay the price and the network fee; a valid phrase whose wallets hold nothing yet answers this too, naming the address to fund."
  },
  MARKETPLACE_ERROR: { status: 400, description: "/stars/buy: the marketplace refused the purchase." },
  MARKETPLACE_API_ERROR: {
    status: 400,
    description: "The marketplace refused the purchase (unknown user, already subscribed)."
  },
  USER_TRANSFER_FAIL: { status: 400, description: "The transfer did not go through; check the order again later." },
  PENDING_TRANSACTION: { status: 409, description: "This order id is being paid; ask again for the result." },
  ALREADY_SIGNED: {
    status: 409,
    description: "Wallet road: another signed message was already reported for this order; do not broadcast this one."
  },
  NOT_FOUND: {
    status: 404,
    description: "No such direct endpoint, or (wallet road) no order under this id for this wallet."
  },
  METHOD_NOT_ALLOWED: { status: 405, description: "Direct endpoints answer GET and POST only." },
  PAYLOAD_TOO_LARGE: { status: 413, description: "The request body is larger than the surface accepts." },
  RATE_LIMITED: { status: 429, description: "Too many requests from this address; see Retry-After." },
  CRITICAL_SERVER_ERROR: { status: 500, description: "A bug; the message carries an id that is in the log." },
  MARKETPLACE_TIMEOUT: { status: 503, description: "The marketplace did not answer in time; nothing was lost." },
  SERVICE_BUSY: { status: 503, description: "Too many wallets being opened; retry shortly (nothing was done)." },
  SERVICE_UNAVAILABLE: {
    status: 503,
    description: "The database does not answer; retry the same request (same order_id) after Retry-After."
  }
}

export const str = (description: string, extra: Json = {}): Json => ({ type: "string", description, ...extra })
export const num = (description: string, extra: Json = {}): Json => ({ type: "number", description, ...extra })

const REQUEST_ID = "8f2c41d0-5b7e-4c1a-9d3f-2e6a7b8c9d01"
export const Failure = {
  type: "object",
  required: ["ok", "code", "message", "request_id"],
  properties: {
    ok: { type: "boolean", enum: [false] },
    code: { type: "string", enum: Object.keys(CODES) },
    message: { type: "string" },
    order_id: { type: "string" },
    request_id: str("The answer's `X-Request-Id`: quote it to find the request in the server's logs.")
  },
  examples: [
    {
      ok: false,
      code: "INSUFFICIENT_FUNDS",
      message: "The wallet holds 0.1 TON, not enough for 0.9218 TON plus network fees",
      order_id: "ORD1",
      request_id: REQUEST_ID
    },
    {
      ok: false,
      code: "INSUFFICIENT_FUNDS",
      message: "The wallets of this phrase hold no TON yet: send TON to UQ... (v5r1), then try again",
      request_id: REQUEST_ID
    }
  ]
}

export const errorResponses = (statuses: ReadonlyArray<number>): Json =>
  Object.fromEntries(
    statuses.map((status) => [
      String(status),
      {
        description: Object.entries(CODES)
          .filter(([, c]) => c.status === status)
          .map(([code, c]) => `${code}: ${c.description}`)
          .join(" "),
        content: { "application/json": { schema: { $ref: "#/components/schemas/Failure" } } }
      }
    ])
  )

/**
 * Every field but `seed` may come in the query string instead of the body (the body's win): each is
 * an optional query parameter. The phrase is refused in the URL, so it is no parameter.
 */
const queryParameters = (request: Json): ReadonlyArray<Json> =>
  Object.entries(request)
    .filter(([name]) => name !== "seed")
    .map(([name, field]) => {
      const { description, "x-required": _required, ...schema } = field as Json
      return {
        name,
        in: "query",
        required: false,
        description: `${description === undefined ? `\`${name}\`.` : String(description)} In the query instead of the body (the body's value wins).`,
        schema
      }
    })

const operation = (
  summary: string,
  description: string,
  request: Json,
  success: Json,
  example: Json,
  asked: Json,
  optional: ReadonlyArray<string> = []
): Json => {
  const answered = {
    type: "object",
    // Every field an answer carries is listed; all of them always come but the `optional` ones.
    required: Object.keys(success).filter((k) => !optional.includes(k)),
    properties: success,
    examples: [example]
  }
  const body = {
    type: "object",
    examples: [asked],
    required: Object.entries(request)
      .filter(([, v]) => (v as Json)["x-required"])
      .map(([k]) => k),
    properties: Object.fromEntries(
      Object.entries(request).map(([k, v]) => [k, { ...(v as Json), "x-required": undefined }])
    )
  }
  const parameters = queryParameters(request)
  return {
    summary,
    description: `${description} Fields may also come in the query string (the body's win), except \`seed\`.`,
    ...(parameters.length === 0 ? {} : { parameters }),
    requestBody: { required: false, content: { "application/json": { schema: JSON.parse(JSON.stringify(body)) } } },
    responses: {
      "200": {
        description: "Done",
        content: { "application/json": { schema: answered } }
      },
      ...errorResponses([400, 404, 405, 409, 413, 429, 500, 503])
    }
  }
}

export const required = (schema: Json): Json => ({ ...schema, "x-required": true })
const OK = { ok: { type: "boolean" }, message: { type: "string" } }

/**
 * `asked`: an example request body; `example`: its answer. Purchases answer their `order_id`; reads
 * (`/balance`, `/status`) have none. `optional`: answer fields that only some answers carry.
 */
export const purchase = (
  fields: Json,
  success: Json,
  summary: string,
  description: string,
  example: Json,
  asked: Json,
  shape: { readonly read?: boolean; readonly optional?: ReadonlyArray<string> } = {}
) => {
  const op = operation(
    summary,
    description,
    fields,
    { ...OK, ...(shape.read === true ? {} : { order_id: { type: "string" } }), ...success },
    example,
    asked,
    shape.optional
  )
  const get = {
    ...op,
    operationId: `${summary}.get`,
    // a GET body is what existing bots send, but fetch-based clients cannot: the phrase needs POST there
    description: `${String(op["description"])} GET also reads a JSON body (where \`seed\` goes); clients that cannot send a body with GET, such as fetch, use POST.`,
    requestBody: undefined
  }
  return { get, post: { ...op, operationId: `${summary}.post` } }
}
