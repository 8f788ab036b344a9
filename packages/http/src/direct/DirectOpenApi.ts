import { STARS_MAX, STARS_MIN } from "@resale/core/orders/OrderRules.ts"
import type { DirectCode } from "./DirectErrors.ts"
import { walletPaths } from "./WalletOpenApi.ts"

/**
 * The direct purchase surface's own OpenAPI document (`/direct/openapi.json`): its paths are not
 * part of the /v2 HttpApi (they answer GET and POST with the fields in a JSON body or the query,
 * in the flat `{ok, code, message}` dialect existing bots read). `CODES` has a row for every code
 * `DirectErrors.ts` can answer: a new code without a row fails the type check.
 */
type Json = Record<string, unknown>

export const DIRECT_OPENAPI_PATH = "/direct/openapi.json"

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

const str = (description: string, extra: Json = {}): Json => ({ type: "string", description, ...extra })
const num = (description: string, extra: Json = {}): Json => ({ type: "number", description, ...extra })
const COST = num("TON taken from the wallet (price + network fee), exact to the nanoton: up to 9 decimals.")

const SEED = str("The wallet's 12 or 24-word mnemonic. Only in the body: never in the URL; never stored or logged.")
const ORDER_ID = str(
  "Your id of the order (1-128 of A-Z a-z 0-9 _ . : -); the same id asks for the same order's result.",
  {
    pattern: "^[A-Za-z0-9_.:-]{1,128}$"
  }
)
const WALLET_VERSION = str("Which wallet of the phrase pays.", { enum: ["v4r2", "v5r1"] })
// A placeholder, never a real phrase: a mnemonic is not written anywhere, examples included.
const PHRASE = "word1 word2 word3 ... word24"
const USERNAME = str("Telegram username, with or without @.", { pattern: "^@?[A-Za-z0-9_]{4,32}$" })

const REQUEST_ID = "8f2c41d0-5b7e-4c1a-9d3f-2e6a7b8c9d01"
const Failure = {
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

const errorResponses = (statuses: ReadonlyArray<number>): Json =>
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

const required = (schema: Json): Json => ({ ...schema, "x-required": true })
const OK = { ok: { type: "boolean" }, message: { type: "string" } }

/**
 * `asked`: an example request body; `example`: its answer. Purchases answer their `order_id`; reads
 * (`/balance`, `/status`) have none. `optional`: answer fields that only some answers carry.
 */
const purchase = (
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

const paths: Json = {
  "/stars/buy": purchase(
    {
      username: required(USERNAME),
      amount: required({ type: "integer", minimum: STARS_MIN, maximum: STARS_MAX }),
      seed: required(SEED),
      order_id: ORDER_ID,
      wallet_version: WALLET_VERSION
    },
    {
      username: { type: "string" },
      stars_amount: { type: "integer" },
      cost: COST
    },
    "buyStars",
    "Buy Telegram Stars for a username, paid from the caller's wallet.",
    {
      ok: true,
      message: "Bought 100 Telegram Stars for @durov",
      order_id: "ORD1",
      username: "durov",
      stars_amount: 100,
      cost: 0.466420801
    },
    { username: "durov", amount: 100, seed: PHRASE, order_id: "ORD1", wallet_version: "v5r1" }
  ),
  "/premium/buy": purchase(
    {
      username: required(USERNAME),
      duration: required({ type: "integer", enum: [3, 6, 12] }),
      seed: required(SEED),
      order_id: ORDER_ID,
      wallet_version: WALLET_VERSION
    },
    {
      username: { type: "string" },
      duration: { type: "integer" },
      cost: COST
    },
    "buyPremium",
    "Gift Telegram Premium (3, 6 or 12 months), paid from the caller's wallet.",
    {
      ok: true,
      message: "Gifted 3 months of Telegram Premium to @durov",
      order_id: "ORD2",
      username: "durov",
      duration: 3,
      cost: 4.1
    },
    { username: "durov", duration: 3, seed: PHRASE, order_id: "ORD2" }
  ),
  "/coin/buy": purchase(
    {
      username: required(USERNAME),
      amount: required({ type: "integer", minimum: 1, maximum: 1_000_000 }),
      seed: required(SEED),
      order_id: ORDER_ID,
      wallet_version: WALLET_VERSION
    },
    { username: { type: "string" }, amount: { type: "number" }, cost: COST },
    "buyTon",
    "Top up a username's Telegram TON balance (alias: /ton/buy).",
    { ok: true, message: "Topped up @durov with 5 TON", order_id: "ORD3", username: "durov", amount: 5, cost: 5.01 },
    { username: "durov", amount: 5, seed: PHRASE, order_id: "ORD3" }
  ),
  "/coin/transfer": purchase(
    {
      to: required(str("Destination TON address.")),
      amount: required(num("TON, up to 9 decimals.", { exclusiveMinimum: 0 })),
      seed: required(SEED),
      comment: str("Public on chain."),
      order_id: ORDER_ID,
      wallet_version: WALLET_VERSION
    },
    { tx_hash: { type: "string" }, fee: num("Network fee on top of amount, exact to the nanoton: up to 9 decimals.") },
    "transfer",
    "Send TON from the caller's wallet (alias: /ton/transfer).",
    { ok: true, message: "Sent 0.5 TON to UQ...", order_id: "ORD4", tx_hash: "ab12", fee: 0.003110001 },
    { to: "UQ...", amount: 0.5, seed: PHRASE, comment: "invoice 118", order_id: "ORD4" }
  ),
  "/balance": purchase(
    { seed: required(SEED), wallet_version: WALLET_VERSION },
    {
      address: { type: "string" },
      version: { type: "string" },
      status: { type: "string" },
      state: { type: "string" },
      balance: { type: "number" },
      addresses: {
        type: "object",
        additionalProperties: { type: "string" },
        description:
          "Only for a phrase whose wallets never received TON: each wallet version's address (`v4r2`, `v5r1`); send TON to either."
      }
    },
    "balance",
    "The wallet of a phrase: address, state and balance.",
    {
      ok: true,
      message: "Wallet v5r1 holds 1.5 TON",
      address: "UQ...",
      version: "v5r1",
      status: "active",
      state: "active",
      balance: 1.5
    },
    { seed: PHRASE, wallet_version: "v5r1" },
    { read: true, optional: ["addresses"] }
  ),
  "/status": purchase(
    {},
    { status: { type: "string" }, network: { type: "string" }, sandbox: { type: "boolean" } },
    "status",
    "Whether the service is up and which network it pays on.",
    { ok: true, status: "ok", message: "Service is up", network: "mainnet", sandbox: false },
    {},
    { read: true }
  ),
  ...walletPaths(errorResponses)
}

export const directOpenApi: Json = {
  openapi: "3.1.0",
  info: {
    title: "Resale direct purchase surface",
    version: "0.1.0",
    description:
      "Purchases paid from the caller's own TON wallet, exactly once per wallet and `order_id`. " +
      'Errors are flat: `{"ok": false, "code", "message", "request_id"}` (codes in the Failure schema). Every answer carries `X-Request-Id`.',
    license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" }
  },
  servers: [{ url: "/", description: "This server" }],
  security: [],
  tags: [{ name: "direct", description: "Pay from your own wallet." }],
  paths: Object.fromEntries(
    Object.entries(paths).map(([path, ops]) => [
      path,
      Object.fromEntries(
        Object.entries(ops as Record<string, Json>).map(([method, op]) => [
          method,
          { ...JSON.parse(JSON.stringify(op)), tags: ["direct"] }
        ])
      )
    ])
  ),
  components: { schemas: { Failure } }
}
