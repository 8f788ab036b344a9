/**
 * The one place where the direct surface's failures become answers: spec §7's codes and statuses, in
 * the flat body existing clients read, `{"ok": false, "code": "...", "message": "..."}` (plus the
 * `order_id` when an order exists, so a caller without one can still ask for its result).
 */
import type { DirectPurchaseError } from "@resale/core/direct/DirectPurchaseError.ts"
import { HttpServerResponse } from "effect/http"

/** Which endpoint answers: stars and the others name marketplace errors differently. */
export type DirectEndpoint = "stars" | "premium" | "ton_topup" | "transfer" | "balance" | "status" | "wallet_order"

export type DirectCode =
  | "VALIDATION_ERROR"
  | "INSUFFICIENT_FUNDS"
  | "WALLET_VM_ERROR"
  | "MARKETPLACE_API_ERROR"
  | "MARKETPLACE_ERROR"
  | "USER_TRANSFER_FAIL"
  | "MARKETPLACE_TIMEOUT"
  | "CRITICAL_SERVER_ERROR"
  | "PENDING_TRANSACTION"
  | "INVALID_AMOUNT_MIN"
  | "INVALID_AMOUNT_MAX"
  | "RATE_LIMITED"
  | "SERVICE_BUSY"
  | "SERVICE_UNAVAILABLE"
  | "NOT_FOUND"
  | "METHOD_NOT_ALLOWED"
  | "PAYLOAD_TOO_LARGE"
  | "ALREADY_SIGNED"

export interface DirectFailure {
  readonly status: number
  readonly code: DirectCode
  readonly message: string
  readonly orderId?: string
}

const byReason = (endpoint: DirectEndpoint, error: DirectPurchaseError): readonly [number, DirectCode] => {
  switch (error.reason) {
    case "InvalidRequest":
    case "OrderIdReused":
      return [400, "VALIDATION_ERROR"]
    case "AmountBelowMinimum":
      return [400, "INVALID_AMOUNT_MIN"]
    case "AmountAboveMaximum":
      return [400, "INVALID_AMOUNT_MAX"]
    case "WalletInvalid":
      return [400, "WALLET_VM_ERROR"]
    case "InsufficientFunds":
      return [400, "INSUFFICIENT_FUNDS"]
    case "MarketplaceRejected":
      return [400, endpoint === "stars" ? "MARKETPLACE_ERROR" : "MARKETPLACE_API_ERROR"]
    case "MarketplaceTimeout":
      return [503, "MARKETPLACE_TIMEOUT"]
    case "TransferFailed":
      return [400, "USER_TRANSFER_FAIL"]
    case "OrderPending":
      return [409, "PENDING_TRANSACTION"]
    case "ServiceBusy":
      return [503, "SERVICE_BUSY"]
    case "OrderNotFound":
      return [404, "NOT_FOUND"]
    case "SecondSignature":
      return [409, "ALREADY_SIGNED"]
  }
}

export const failureOf = (endpoint: DirectEndpoint, error: DirectPurchaseError): DirectFailure => {
  const [status, code] = byReason(endpoint, error)
  return { status, code, message: error.message, ...(error.orderId === undefined ? {} : { orderId: error.orderId }) }
}

/** Malformed JSON, unreadable or oversized bodies: the request never reached the use case. */
export const badRequest = (message: string): DirectFailure => ({ status: 400, code: "VALIDATION_ERROR", message })

export const rateLimited = (perMinute: number, retryAfterSeconds: number): DirectFailure => ({
  status: 429,
  code: "RATE_LIMITED",
  message: `Too many requests from your address: at most ${perMinute} per minute on these endpoints; retry in ${retryAfterSeconds} s`
})

/** A path under the direct surface's prefixes that does not exist, or a method a direct path does not take. */
export const notFound: DirectFailure = {
  status: 404,
  code: "NOT_FOUND",
  message:
    "No such endpoint: the direct surface has /stars/buy, /premium/buy, /coin/buy, /coin/transfer, /ton/buy, /ton/transfer, /balance and /status, and for wallets that sign themselves /stars/quote, /premium/quote, /coin/quote, /ton/quote, /wallet/report and /wallet/status"
}
export const methodNotAllowed = (method: string, path: string, allowed = "GET and POST"): DirectFailure => ({
  status: 405,
  code: "METHOD_NOT_ALLOWED",
  message: `${path} answers ${allowed}, not ${method}`
})

/** A defect: nothing about it goes to the caller but an id that is also in the log. */
export const critical = (errorId: string): DirectFailure => ({
  status: 500,
  code: "CRITICAL_SERVER_ERROR",
  message: `Internal error (id ${errorId}); the operators can find it in the log by this id`
})

/**
 * The database does not answer (a restart, a failover). Not CRITICAL_SERVER_ERROR (500, a bug with
 * an id) nor MARKETPLACE_TIMEOUT (503, Fragment): something may already be recorded, so the caller
 * retries the same request with the same order_id after `Retry-After`, which never pays twice.
 */
export const serviceUnavailable: DirectFailure = {
  status: 503,
  code: "SERVICE_UNAVAILABLE",
  message:
    "The service is briefly unavailable (its database does not answer); retry the same request with the same order_id shortly"
}

export const failureResponse = (failure: DirectFailure, headers: Record<string, string> = {}) =>
  HttpServerResponse.jsonUnsafe(
    {
      ok: false,
      code: failure.code,
      message: failure.message,
      ...(failure.orderId === undefined ? {} : { order_id: failure.orderId })
    },
    { status: failure.status, headers }
  )
