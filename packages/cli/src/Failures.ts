import { ConfigProblems } from "@resale/config"
import { Cause } from "effect"
import { formatUzs } from "./Output.ts"

/** How a failed command ends: a stable code for scripts, one sentence for people, and the exit code. */
export interface Failure {
  readonly code: string
  readonly message: string
  readonly exitCode: 1 | 2
}

type Tagged = { readonly _tag: string } & Record<string, unknown>

const isTagged = (u: unknown): u is Tagged =>
  typeof u === "object" && u !== null && typeof (u as { _tag?: unknown })._tag === "string"

const topupVerb: Record<string, string> = {
  paid: "approved or marked paid",
  rejected: "rejected",
  cancelled: "cancelled"
}
const orderVerb: Record<string, string> = { queued: "retried", completed: "marked done", failed: "failed or refunded" }

/** The operator-facing sentence for each domain error the core services can fail with. */
const domainMessage = (e: Tagged): string | undefined => {
  switch (e._tag) {
    case "TopupNotFound":
      return `Top-up #${e["topupId"]} does not exist.`
    case "TopupTransitionInvalid":
      return `Top-up #${e["topupId"]} is ${e["from"]}; it cannot be ${topupVerb[String(e["to"])] ?? `moved to ${e["to"]}`}.`
    case "TopupPossibleDuplicate":
      if (e["reason"] === "SameFile") {
        return (
          `The same receipt file was sent for top-up #${e["duplicateOf"]}: top-up #${e["topupId"]} looks like the same payment. ` +
          `If it is a second payment, approve again with --confirm-duplicate.`
        )
      }
      if (e["reason"] === "NearAmount") {
        return (
          `Top-up #${e["duplicateOf"]}, credited to the same user shortly before, is within 1 % or 1,000 UZS of top-up #${e["topupId"]}'s ` +
          `${formatUzs(Number(e["amountUzs"]))} UZS: it looks like the same payment. If it is a second payment, approve again with --confirm-duplicate.`
        )
      }
      return `Top-up #${e["duplicateOf"]} of ${formatUzs(Number(e["amountUzs"]))} UZS was credited to the same user at ${
        e["creditedAt"] instanceof Date ? e["creditedAt"].toISOString() : String(e["creditedAt"])
      }: top-up #${e["topupId"]} looks like the same payment. If it is a second payment, approve again with --confirm-duplicate.`
    case "PaymentPossibleDuplicate":
      return (
        `Top-up #${e["creditedTopupId"]} of the same user was credited ${formatUzs(Number(e["amountUzs"]))} UZS on a receipt alone: ` +
        `payment #${e["paymentId"]} is most likely that money. If it is another payment, assign again with --confirm-duplicate.`
      )
    case "OrderNotFound":
      return `Order #${e["orderId"]} does not exist.`
    case "OrderTransitionInvalid":
      return `Order #${e["orderId"]} is ${e["from"]}; it cannot be ${orderVerb[String(e["to"])] ?? `moved to ${e["to"]}`}.`
    case "TicketNotFound":
      return `Ticket #${e["ticketId"]} does not exist.`
    case "TicketTransitionInvalid":
      return `Ticket #${e["ticketId"]} is already ${e["from"]}.`
    case "PaymentNotFound":
      return `Payment #${e["paymentId"]} does not exist.`
    case "PaymentAlreadyMatched":
      return `Payment #${e["paymentId"]} is already ${e["status"]}; it cannot be assigned again.`
    case "ReceiptNotFound":
      return `Top-up #${e["topupId"]} has no receipt.`
    case "UserNotFound":
      return e["userId"] === undefined ? "No such user." : `User #${e["userId"]} does not exist.`
    case "InsufficientBalance":
      return `User #${e["userId"]} has ${formatUzs(Number(e["balance"]))} UZS; ${formatUzs(Number(e["required"]))} UZS are needed.`
    case "TicketMessageInvalid":
    case "PricesInvalid":
    case "AdjustmentInvalid":
    case "TopupAmountInvalid":
    case "BlockchainError":
    case "DirectPurchaseError":
    case "CliCommandError":
    case "ReportRequestInvalid":
      return typeof e["message"] === "string" ? capitalise(e["message"]) : undefined
    default:
      return undefined
  }
}

const capitalise = (text: string): string => {
  const s = text.charAt(0).toUpperCase() + text.slice(1)
  return /[.!?]$/.test(s) ? s : `${s}.`
}

// The messages along a cause chain (SqlError -> reason -> driver error), innermost last, each once.
const messages = (u: unknown): ReadonlyArray<string> => {
  const seen: Array<string> = []
  let current: unknown = u
  for (let depth = 0; depth < 6 && current !== undefined && current !== null; depth++) {
    const message =
      typeof current === "object" && typeof (current as { message?: unknown }).message === "string"
        ? (current as { message: string }).message
        : typeof current === "string"
          ? current
          : undefined
    if (message !== undefined && message !== "" && !seen.includes(message)) seen.push(message)
    current = typeof current === "object" ? (current as { cause?: unknown }).cause : undefined
  }
  return seen
}

// Infrastructure failures: say what went wrong, never echo connection strings.
const infrastructureMessage = (u: unknown): string => {
  const detail = (messages(u).join(": ") || String(u)).replace(/postgres(ql)?:\/\/[^\s"']+/gi, "<database url>")
  if (/relation "[^"]*" does not exist/i.test(detail)) {
    return `The database is not migrated (${detail}); run \`resale db migrate\` first.`
  }
  return `Database or service failure: ${detail}`
}

/** The failure of a command's Effect, from its cause: domain errors by tag, usage errors, defects. */
export const describeCause = (cause: Cause.Cause<unknown>): Failure => {
  const error = Cause.findErrorOption(cause)
  if (error._tag === "Some") return describeError(error.value)
  if (Cause.hasInterruptsOnly(cause)) return { code: "Interrupted", message: "Interrupted.", exitCode: 1 }
  const defect = Cause.squash(cause)
  return { code: "Defect", message: infrastructureMessage(defect), exitCode: 1 }
}

export const describeError = (error: unknown): Failure => {
  if (isTagged(error)) {
    if (error._tag === "CliUsageError") return { code: "Usage", message: String(error["message"]), exitCode: 2 }
    // Every bad setting at once, one line each (the same report the server and the worker print).
    if (error instanceof ConfigProblems) return { code: "Config", message: error.report, exitCode: 2 }
    const message = domainMessage(error)
    if (message !== undefined) {
      const code = error._tag === "CliCommandError" ? String(error["reason"]) : error._tag
      return { code, message, exitCode: 1 }
    }
    return { code: error._tag, message: infrastructureMessage(error), exitCode: 1 }
  }
  return { code: "Error", message: infrastructureMessage(error), exitCode: 1 }
}
