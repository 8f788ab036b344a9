import { STARS_MAX, STARS_MIN } from "@resale/core/orders/OrderRules.ts"
import { errorResponses, Failure, type Json, num, purchase, required, str } from "./DirectOperations.ts"
import { walletPaths } from "./WalletOpenApi.ts"

/**
 * The direct purchase surface's own OpenAPI document (`/direct/openapi.json`): its paths are not
 * part of the /v2 HttpApi (they answer GET and POST with the fields in a JSON body or the query,
 * in the flat `{ok, code, message}` dialect existing bots read).
 */
export const DIRECT_OPENAPI_PATH = "/direct/openapi.json"

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
