import { deliveryOf } from "@resale/core/direct/DeliveryEvidence.ts"
import { DirectKind, DirectState } from "@resale/core/direct/DirectPurchase.ts"
import { DirectPurchases } from "@resale/core/direct/DirectPurchases.ts"
import { formatTon } from "@resale/core/money/Nanoton.ts"
import type { DirectPurchaseRecord } from "@resale/core/ports/DirectPurchaseRecords.ts"
import { DirectPurchaseHistory } from "@resale/core/direct/DirectPurchaseHistory.ts"
import { type Command, Option as Flag } from "commander"
import { Effect } from "effect"
import { nonBlank, wholeNumber } from "../Args.ts"
import { CliCommandError } from "../CliErrors.ts"
import { CliCore, CliDirect } from "../Layers.ts"
import { fields, listing, output, table } from "../Output.ts"
import { type CommonOptions, runCommand } from "../Runner.ts"
import { choiceOption, type PageOptions, pageOf, withJson, withPage } from "./Common.ts"

/**
 * Payments from customers' own wallets (the direct purchase surface), for operators: what was paid,
 * the fee, the tx hash, the marketplace `Ref#` and the delivery state; and reconciliation of the
 * ones whose outcome is open.
 */

const ton = (amount: bigint | null): string | null => (amount === null ? null : formatTon(amount))
const short = (hash: string | null): string | null =>
  hash === null ? null : hash.length > 16 ? `${hash.slice(0, 16)}…` : hash

/** What the state means for the customer's money and goods. */
export const deliveryText = (r: DirectPurchaseRecord): string => {
  switch (r.state) {
    case "pending":
      return "nothing signed yet"
    case "sending":
      return "payment signed, being sent"
    case "sent":
      return r.kind === "transfer" ? "payment sent" : "paid, awaiting delivery"
    case "done":
      return r.kind === "transfer"
        ? "transferred"
        : deliveryOf(r) === "paid"
          ? "paid, delivery not confirmed (own evidence)"
          : "delivered"
    case "failed":
      return "failed, nothing paid"
    case "unknown":
      return r.txHash === null ? "outcome unknown: to be checked on chain" : "paid, delivery unconfirmed"
  }
}

const HEADERS = [
  "ORDER ID",
  "KIND",
  "STATE",
  "DELIVERY",
  "RECIPIENT",
  "PAID TON",
  "FEE TON",
  "TX HASH",
  "REF#",
  "UPDATED"
]
const row = (r: DirectPurchaseRecord) => [
  r.orderId,
  r.kind,
  r.state,
  deliveryText(r),
  r.recipient.length > 24 ? `${r.recipient.slice(0, 23)}…` : r.recipient,
  ton(r.payAmount ?? r.amount),
  ton(r.fee),
  short(r.txHash),
  r.ref,
  r.updatedAt
]

const recordText = (r: DirectPurchaseRecord): string =>
  fields([
    ["Order id", r.orderId],
    ["Kind", r.kind],
    ["Network", r.network],
    ["State", r.state],
    ["Delivery", deliveryText(r)],
    ["Wallet", `${r.walletAddress} (${r.walletVersion})`],
    ["Recipient", r.recipient],
    ["Units", r.units],
    ["Amount TON", ton(r.amount)],
    ["Paid to", r.payTo],
    ["Paid TON", ton(r.payAmount)],
    ["Fee TON", ton(r.fee)],
    ["Tx hash", r.txHash],
    ["Ref#", r.ref],
    ["Marketplace req", r.marketplaceReqId],
    ["Seqno", r.prepared?.seqno ?? null],
    ["Message hash", r.prepared?.externalHash ?? null],
    [
      r.state === "done" ? "Evidence" : "Error",
      r.errorReason === null ? null : `${r.errorReason}: ${r.errorMessage ?? ""}`
    ],
    ["Attempts", r.attempts],
    ["Created", r.createdAt],
    ["Updated", r.updatedAt],
    ["Completed", r.completedAt]
  ])

interface ListOptions extends CommonOptions, PageOptions {
  readonly state?: DirectState
  readonly kind?: DirectKind
}

const OPEN: ReadonlyArray<DirectState> = ["pending", "sending", "sent", "unknown"]

/** Every wallet payment, newest first, optionally of one state and one kind. */
const list = (options: ListOptions) =>
  Effect.gen(function* () {
    const filter = {
      ...(options.state === undefined ? {} : { state: options.state }),
      ...(options.kind === undefined ? {} : { kind: options.kind })
    }
    const page = yield* (yield* DirectPurchaseHistory).list(filter, pageOf(options))
    const noun = [options.state, options.kind, "wallet payments"].filter((w) => w !== undefined).join(" ")
    const hint = page.items.some((r) => OPEN.includes(r.state))
      ? "\n\nSettle the unknown ones with `resale reconcile`; details with `resale payouts show ORDER_ID`."
      : ""
    return output(
      { items: page.items, total: page.total },
      listing(HEADERS, page.items.map(row), { total: page.total, offset: options.offset }, noun) + hint
    )
  })

const notFound = (orderId: string) =>
  new CliCommandError({ reason: "NotFound", message: `no wallet payment has order id ${orderId}` })

const show = (orderId: string) =>
  Effect.gen(function* () {
    // An order id belongs to its wallet, so several wallets (or one, over time) may have used it: newest first.
    const found = yield* (yield* DirectPurchaseHistory).byOrderId(orderId)
    if (found.length === 0) return yield* notFound(orderId)
    return output(found.length === 1 ? found[0] : { items: found }, found.map(recordText).join("\n\n"))
  })

interface ReconcileOptions extends CommonOptions {
  readonly limit: number
}

/** Settles open payments from what the chain (and the marketplace) say; never signs or sends anything. */
const reconcile = (orderId: string | undefined, options: ReconcileOptions) =>
  Effect.gen(function* () {
    const direct = yield* DirectPurchases
    const history = yield* DirectPurchaseHistory
    let before: ReadonlyArray<DirectPurchaseRecord>
    let after: ReadonlyArray<DirectPurchaseRecord>
    if (orderId !== undefined) {
      before = yield* history.byOrderId(orderId)
      if (before.length === 0) return yield* notFound(orderId)
      after = yield* direct.reconcile(orderId)
    } else {
      before = yield* history.open(options.limit)
      after = yield* direct.reconcileOpen(options.limit)
    }
    const stateBefore = new Map(before.map((r) => [r.id, r.state]))
    const changes = after.map((r) => ({
      orderId: r.orderId,
      from: stateBefore.get(r.id) ?? r.state,
      to: r.state,
      record: r
    }))
    const settled = changes.filter((c) => c.from !== c.to).length
    const stillOpen = after.filter((r) => r.state !== "done" && r.state !== "failed").length
    const summary =
      after.length === 0
        ? "Nothing to reconcile: no payment is open or unknown."
        : `${after.length} checked, ${settled} settled, ${stillOpen} still open.`
    const text =
      after.length === 0
        ? summary
        : `${table(
            ["ORDER ID", "KIND", "BEFORE", "NOW", "DELIVERY", "PAID TON", "FEE TON", "TX HASH", "REF#"],
            changes.map((c) => [
              c.orderId,
              c.record.kind,
              c.from,
              c.to,
              deliveryText(c.record),
              ton(c.record.payAmount ?? c.record.amount),
              ton(c.record.fee),
              short(c.record.txHash),
              c.record.ref
            ])
          )}\n\n${summary}`
    return output(
      {
        checked: after.length,
        settled,
        stillOpen,
        changes: changes.map(({ from, record, to }) => ({ from, to, record }))
      },
      text
    )
  })

const limitOption = () =>
  new Flag("--limit <n>", "at most this many payments, 1-500").argParser(wholeNumber("--limit", 1, 500)).default(100)

export const registerPayouts = (program: Command): void => {
  const payouts = program.command("payouts").description("payments from customers' own wallets (direct purchases)")

  withPage(
    withJson(
      payouts
        .command("list")
        .description("every wallet payment, newest first, with fee, tx hash, Ref# and delivery state")
        .addOption(choiceOption("--state <state>", "only payments in this state", DirectState.literals))
        .addOption(choiceOption("--kind <kind>", "only payments of this kind", DirectKind.literals))
    )
  ).action((options: ListOptions) => runCommand(CliCore, list(options), options))

  withJson(
    payouts
      .command("show")
      .description("one wallet payment, open or finished, by its order id")
      .argument("<order_id>", "the order id of the direct purchase", nonBlank("the order id"))
  ).action((orderId: string, options: CommonOptions) => runCommand(CliCore, show(orderId.trim()), options))

  withJson(
    program
      .command("reconcile")
      .description("check open wallet payments on chain and settle them (done or failed); never pays anything")
      .argument("[order_id]", "only this payment (default: every unknown or stale one)", nonBlank("the order id"))
      .addOption(limitOption())
  ).action((orderId: string | undefined, options: ReconcileOptions) =>
    runCommand(CliDirect, reconcile(orderId?.trim(), options), options)
  )
}
