/**
 * The wallet road's operations in the direct document: quotes for a TON Connect account, the report
 * of the signed message and the status. POST only, a JSON body, never a phrase (a `seed` or
 * `mnemonic` field is refused with VALIDATION_ERROR).
 */
import { STARS_MAX, STARS_MIN } from "@resale/core/orders/OrderRules.ts"

type Json = Record<string, unknown>

const str = (description: string, extra: Json = {}): Json => ({ type: "string", description, ...extra })

const RAW = "0:3c1f6d0b8e2a4f5c7d9e1a3b5c7d9e1f2a4b6c8d0e2f4a6b8c0d2e4f6a8b0c2d"
const ACCOUNT_EXAMPLE = {
  address: RAW,
  publicKey: "9a".repeat(32),
  walletStateInit: "te6cckECFgEAAwQAAgE0AQIBFP8A9KQT..."
}

const ACCOUNT: Json = {
  type: "object",
  description:
    "The buyer's wallet exactly as TON Connect's `Account` gives it on connect (`account.address`, `account.publicKey`, `account.walletStateInit`; `public_key` and `wallet_state_init` are read too). The StateInit must make that address.",
  required: ["address", "publicKey", "walletStateInit"],
  properties: {
    address: str("Raw address `0:<64 hex>` (a user-friendly form is read too)."),
    publicKey: str("The wallet's public key, 64 hex characters."),
    walletStateInit: str("The wallet's StateInit, a base64 BOC."),
    chain: str("TON Connect's chain id (-239 mainnet, -3 testnet); informative.")
  }
}
const ORDER_ID = str("Your id of the order (1-128 of A-Z a-z 0-9 _ . : -), scoped to the wallet.", {
  pattern: "^[A-Za-z0-9_.:-]{1,128}$"
})
const USERNAME = str("Telegram username, with or without @.", { pattern: "^@?[A-Za-z0-9_]{4,32}$" })
const STATUS = str(
  "awaiting_payment, paid (on chain, delivery not read yet), then exactly one final state: delivered, paid_unconfirmed (paid; the marketplace did not confirm delivery), expired (not paid before valid_until) or failed (the reported message paid nothing).",
  { enum: ["awaiting_payment", "paid", "delivered", "paid_unconfirmed", "expired", "failed"] }
)
const COST = { type: "number", description: "TON the wallet sends to the marketplace (network fee not included)." }
const VALID_UNTIL = { type: "integer", description: "Unix seconds: the wallet must send before it." }

const TRANSACTION: Json = {
  type: "object",
  description:
    "TON Connect's `sendTransaction` request, made from the marketplace's answer: hand it unchanged to the wallet (`tonConnectUI.sendTransaction(transaction)`). Its field names are TON Connect's.",
  required: ["validUntil", "network", "from", "messages"],
  properties: {
    validUntil: { type: "integer" },
    network: { type: "string" },
    from: { type: "string" },
    messages: {
      type: "array",
      items: {
        type: "object",
        required: ["address", "amount", "payload"],
        properties: {
          address: str("The marketplace's wallet."),
          amount: str("Nanoton, as a decimal string."),
          payload: str("The message body (base64 BOC: the comment with the order's Ref#), forwarded unchanged.")
        }
      }
    }
  }
}

type Errors = (statuses: ReadonlyArray<number>) => Json

const op = (
  errors: Errors,
  operationId: string,
  summary: string,
  request: Json,
  success: Json,
  asked: Json,
  answered: Json,
  optional: ReadonlyArray<string> = []
): Json => {
  const requestRequired = Object.keys(request).filter((k) => k !== "order_id")
  return {
    post: {
      operationId,
      summary,
      description: `${summary} POST only, fields in a JSON body. A \`seed\` or \`mnemonic\` field is refused (VALIDATION_ERROR): the wallet signs, the service never holds a key.`,
      requestBody: {
        required: true,
        content: {
          "application/json": {
            schema: { type: "object", required: requestRequired, properties: request, examples: [asked] }
          }
        }
      },
      responses: {
        "200": {
          description: "Done",
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: Object.keys(success).filter((k) => !optional.includes(k)),
                properties: success,
                examples: [answered]
              }
            }
          }
        },
        ...errors([400, 404, 405, 409, 413, 429, 500, 503])
      }
    }
  }
}

const OK = { ok: { type: "boolean" }, message: { type: "string" }, order_id: { type: "string" }, status: STATUS }
const quoted = (fields: Json) => ({ ...OK, ...fields, cost: COST, valid_until: VALID_UNTIL, transaction: TRANSACTION })
/** A quote's answer; `what` as its message names the purchase. */
const quoteExample = (what: string, fields: Json) => ({
  ok: true,
  message: `Sign the transaction in the wallet to buy ${what}, then report the signed message`,
  order_id: "W1",
  status: "awaiting_payment",
  cost: 0.2305,
  ...fields,
  valid_until: 1795900000,
  transaction: {
    validUntil: 1795900000,
    network: "-239",
    from: RAW,
    messages: [
      { address: "UQ...", amount: "230500000", payload: "te6ccgEBAgEAPAABSAAAAAA1MCBUZWxlZ3JhbSBTdGFycyAKClJlZiM..." }
    ]
  }
})
const ORDER_ADDRESS = str("The wallet's address (any form); `account` with its `address` is read too.")
const STATUS_ANSWER = {
  ...OK,
  final: { type: "boolean", description: "Whether the status is final (it never changes again)." },
  username: { type: "string" },
  stars_amount: { type: "integer", description: "Stars orders only." },
  duration: { type: "integer", description: "Premium orders only." },
  amount: { type: "number", description: "TON top-up orders only." },
  cost: COST,
  valid_until: VALID_UNTIL,
  reported: { type: "boolean", description: "Whether the signed message was reported." },
  tx_hash: { type: ["string", "null"], description: "The wallet's transaction that paid, once found on chain." }
}
/** The order's own field: one of them, by kind. */
const KIND_FIELDS = ["stars_amount", "duration", "amount"]
const statusExample = {
  ok: true,
  message: "Bought 50 Telegram Stars for @durov",
  order_id: "W1",
  status: "delivered",
  final: true,
  username: "durov",
  stars_amount: 50,
  cost: 0.2305,
  valid_until: 1795900000,
  reported: true,
  tx_hash: "ab12..."
}

/** The paths, given the document's error responses. */
export const walletPaths = (errors: Errors): Json => ({
  "/stars/quote": op(
    errors,
    "quoteStars",
    "Quote Telegram Stars for a username, to be paid by the buyer's own wallet through TON Connect.",
    {
      account: ACCOUNT,
      username: USERNAME,
      amount: { type: "integer", minimum: STARS_MIN, maximum: STARS_MAX },
      order_id: ORDER_ID
    },
    quoted({ username: { type: "string" }, stars_amount: { type: "integer" } }),
    { account: ACCOUNT_EXAMPLE, username: "durov", amount: 50, order_id: "W1" },
    quoteExample("50 Telegram Stars for @durov", { username: "durov", stars_amount: 50 })
  ),
  "/premium/quote": op(
    errors,
    "quotePremium",
    "Quote a Telegram Premium gift (3, 6 or 12 months), to be paid by the buyer's own wallet through TON Connect.",
    { account: ACCOUNT, username: USERNAME, duration: { type: "integer", enum: [3, 6, 12] }, order_id: ORDER_ID },
    quoted({ username: { type: "string" }, duration: { type: "integer" } }),
    { account: ACCOUNT_EXAMPLE, username: "durov", duration: 3, order_id: "W2" },
    quoteExample("3 months of Telegram Premium for @durov", {
      order_id: "W2",
      username: "durov",
      duration: 3,
      cost: 4.1
    })
  ),
  "/coin/quote": op(
    errors,
    "quoteTon",
    "Quote a Telegram TON top-up of a username (alias: /ton/quote), to be paid by the buyer's own wallet.",
    {
      account: ACCOUNT,
      username: USERNAME,
      amount: { type: "integer", minimum: 1, maximum: 1_000_000 },
      order_id: ORDER_ID
    },
    quoted({ username: { type: "string" }, amount: { type: "number" } }),
    { account: ACCOUNT_EXAMPLE, username: "durov", amount: 5, order_id: "W3" },
    quoteExample("a 5 TON top-up of @durov", { order_id: "W3", username: "durov", amount: 5, cost: 5 })
  ),
  "/wallet/report": op(
    errors,
    "reportSigned",
    "Report the signed message TON Connect's sendTransaction answered (`boc`); the service hands it to the marketplace and answers the order's status. The same message again is harmless; another one for the same order answers ALREADY_SIGNED.",
    {
      address: ORDER_ADDRESS,
      order_id: { ...ORDER_ID, description: "The order_id the quote answered." },
      boc: str("The signed external message, base64.")
    },
    STATUS_ANSWER,
    { address: RAW, order_id: "W1", boc: "te6cckEBBAEA..." },
    statusExample,
    KIND_FIELDS
  ),
  "/wallet/status": op(
    errors,
    "walletOrderStatus",
    "The status of a wallet order: the service looks for the wallet's payment on chain (also when it was never reported) and reads delivery from the marketplace.",
    { address: ORDER_ADDRESS, order_id: { ...ORDER_ID, description: "The order_id the quote answered." } },
    STATUS_ANSWER,
    { address: RAW, order_id: "W1" },
    statusExample,
    KIND_FIELDS
  )
})
