import { OrderId } from "@resale/core/ids.ts"
import { type Order, type OrderItem, OrderKind, OrderStatus } from "@resale/core/orders/Order.ts"
import { OrderService } from "@resale/core/orders/OrderService.ts"
import type { Command } from "commander"
import { Effect } from "effect"
import { nonBlank, positiveId, type UserRef, userRef } from "../Args.ts"
import { CliCore } from "../Layers.ts"
import { confirm } from "../Confirmation.ts"
import { fields, formatUzs, listing, output } from "../Output.ts"
import { orderJson } from "../Records.ts"
import { type CommonOptions, runCommand } from "../Runner.ts"
import {
  choiceOption,
  operator,
  type PageOptions,
  pageOf,
  resolveOptionalUser,
  withJson,
  withPage,
  withYes
} from "./Common.ts"

/** `500 stars`, `premium 6 months`, `gift 5170233102089322756 (50 stars)`. */
export const itemText = (item: OrderItem): string => {
  switch (item.kind) {
    case "stars":
      return `${item.stars} stars`
    case "premium":
      return `premium ${item.months} months`
    case "gift":
      return `gift ${item.giftId} (${item.giftStars} stars)`
  }
}

const orderRow = (o: Order) => [
  o.id,
  o.userId,
  `@${o.recipient}`,
  itemText(o.item),
  formatUzs(o.priceUzs),
  o.delivery === "paid_unconfirmed" ? "completed (paid, delivery unconfirmed)" : o.status,
  o.attempts,
  o.createdAt
]

export const orderText = (o: Order): string =>
  fields([
    ["Order", `#${o.id}`],
    ["User", `#${o.userId}`],
    ["Recipient", `@${o.recipient}`],
    ["Item", itemText(o.item)],
    ...(o.item.kind === "gift"
      ? ([
          ["Gift comment", o.item.comment],
          ["Sender account", o.item.senderAccount ?? "default"],
          ["Anonymous", o.item.anonymous ? "yes" : "no"]
        ] as const)
      : []),
    ["Price UZS", formatUzs(o.priceUzs)],
    ["Status", o.status],
    ...(o.delivery === null
      ? []
      : ([
          [
            "Delivery",
            o.delivery === "paid_unconfirmed" ? "paid, delivery not confirmed by Fragment (own evidence)" : "confirmed"
          ]
        ] as const)),
    ["Charge", o.chargeSeq === 0 ? "first charge" : `re-charge ${o.chargeSeq}`],
    ["Attempts", o.attempts],
    ["Next attempt", o.nextAttemptAt],
    ["Last error", o.lastError],
    ["Tx id", o.txId],
    ...(o.item.kind === "gift"
      ? ([["Gift send ref", o.giftRef]] as const)
      : ([["Fragment Ref#", o.fragmentRef]] as const)),
    ...(o.evidence === null
      ? []
      : ([
          ["Unknown since", o.unknownSince],
          ["Unknown checks", o.unknownAttempts],
          ["Evidence tx", o.evidence.txHash],
          ["Evidence Ref#", o.evidence.ref],
          ["Chain state", o.evidence.chainState],
          ["Answers", o.evidence.answers.join(" | ")]
        ] as const)),
    ["Created", o.createdAt],
    ["Updated", o.updatedAt],
    ["Completed", o.completedAt]
  ])

interface ListOptions extends CommonOptions, PageOptions {
  readonly status?: OrderStatus
  readonly kind?: OrderKind
  readonly user?: UserRef
}

const list = (options: ListOptions) =>
  Effect.gen(function* () {
    const userId = yield* resolveOptionalUser(options.user)
    const page = yield* (yield* OrderService).list({
      ...pageOf(options),
      ...(options.status === undefined ? {} : { status: [options.status] }),
      ...(options.kind === undefined ? {} : { kind: options.kind }),
      ...(userId === undefined ? {} : { userId })
    })
    return output(
      { orders: page.items.map(orderJson), total: page.total },
      listing(
        ["ID", "USER", "RECIPIENT", "ITEM", "PRICE UZS", "STATUS", "ATTEMPTS", "CREATED"],
        page.items.map(orderRow),
        {
          total: page.total,
          offset: options.offset
        },
        "orders"
      )
    )
  })

const show = (id: OrderId) =>
  Effect.gen(function* () {
    const order = yield* (yield* OrderService).find(operator, id)
    return output(orderJson(order), orderText(order))
  })

interface RetryOptions extends CommonOptions {
  readonly yes?: boolean
}

const retry = (id: OrderId, options: RetryOptions) =>
  Effect.gen(function* () {
    const orders = yield* OrderService
    const current = yield* orders.find(operator, id)
    yield* confirm(
      `Retry order #${current.id} (${current.status}, ${itemText(current.item)} for @${current.recipient}): ` +
        `charge user #${current.userId} ${formatUzs(current.priceUzs)} UZS again and queue it?`,
      { yes: options.yes === true, action: `retry order #${current.id}` }
    )
    const order = yield* orders.retry(current.id)
    return output(orderJson(order), `Order #${order.id} is ${order.status} again.\n\n${orderText(order)}`)
  })

interface MarkDoneOptions extends RetryOptions {
  readonly txId?: string
}

const markDone = (id: OrderId, options: MarkDoneOptions) =>
  Effect.gen(function* () {
    const orders = yield* OrderService
    const current = yield* orders.find(operator, id)
    const recharge =
      current.status === "failed"
        ? ` It was refunded: user #${current.userId} is charged ${formatUzs(current.priceUzs)} UZS again.`
        : ""
    yield* confirm(
      `Mark order #${current.id} (${current.status}, ${itemText(current.item)} for @${current.recipient}) as delivered?${recharge}`,
      { yes: options.yes === true, action: `mark order #${current.id} done` }
    )
    const order = yield* orders.markDone(current.id, options.txId?.trim())
    return output(orderJson(order), `Order #${order.id} is ${order.status}.\n\n${orderText(order)}`)
  })

const recheck = (id: OrderId, options: RetryOptions) =>
  Effect.gen(function* () {
    const orders = yield* OrderService
    const current = yield* orders.find(operator, id)
    yield* confirm(
      `Check order #${current.id} (${current.status}, ${itemText(current.item)} for @${current.recipient}) again? ` +
        `The worker looks at the same payment again; nothing is paid twice.`,
      { yes: options.yes === true, action: `check order #${current.id} again` }
    )
    const order = yield* orders.recheck(current.id)
    return output(
      orderJson(order),
      `Order #${order.id} is ${order.status}: the worker checks it again.\n\n${orderText(order)}`
    )
  })

interface RefundOptions extends RetryOptions {
  readonly note?: string
}

const refund = (id: OrderId, options: RefundOptions) =>
  Effect.gen(function* () {
    const orders = yield* OrderService
    const current = yield* orders.find(operator, id)
    yield* confirm(
      `Refund order #${current.id} (${current.status}, ${itemText(current.item)} for @${current.recipient}): ` +
        `give user #${current.userId} ${formatUzs(current.priceUzs)} UZS back? Only when the goods were surely not delivered.`,
      { yes: options.yes === true, action: `refund order #${current.id}` }
    )
    const order = yield* orders.refund(current.id, options.note ?? "")
    return output(
      orderJson(order),
      `Order #${order.id} is ${order.status}; ${formatUzs(order.priceUzs)} UZS refunded.\n\n${orderText(order)}`
    )
  })

export const registerOrders = (program: Command): void => {
  const orders = program.command("orders").description("stars, premium and gift orders paid from balances")

  withPage(
    withJson(
      orders
        .command("list")
        .description("list orders, newest first")
        .addOption(choiceOption("--status <status>", "only orders in this status", OrderStatus.literals))
        .addOption(choiceOption("--kind <kind>", "only orders of this kind", OrderKind.literals))
        .option("--user <user>", "only this user's orders (id or @username)", userRef)
    )
  ).action((options: ListOptions) => runCommand(CliCore, list(options), options))

  withJson(
    orders
      .command("show")
      .description("one order in full")
      .argument("<id>", "order id", positiveId("the order id", OrderId))
  ).action((id: OrderId, options: CommonOptions) => runCommand(CliCore, show(id), options))

  withYes(
    withJson(
      orders
        .command("retry")
        .description("queue a failed order again, charging its price again (its refund stays)")
        .argument("<id>", "order id", positiveId("the order id", OrderId))
    )
  ).action((id: OrderId, options: RetryOptions) => runCommand(CliCore, retry(id, options), options))

  withYes(
    withJson(
      orders
        .command("recheck")
        .description("an order that needs attention (delivery unknown past the limit): let the worker check it again")
        .argument("<id>", "order id", positiveId("the order id", OrderId))
    )
  ).action((id: OrderId, options: RetryOptions) => runCommand(CliCore, recheck(id, options), options))

  withYes(
    withJson(
      orders
        .command("refund")
        .description("an order that needs attention: fail it and refund its price, exactly once")
        .argument("<id>", "order id", positiveId("the order id", OrderId))
        .option("--note <text>", "why (kept as the order's error)", nonBlank("--note"))
    )
  ).action((id: OrderId, options: RefundOptions) => runCommand(CliCore, refund(id, options), options))

  withYes(
    withJson(
      orders
        .command("mark-done")
        .description(
          "record an order as delivered by hand, e.g. one that needs attention (a failed one is charged again)"
        )
        .argument("<id>", "order id", positiveId("the order id", OrderId))
        .option("--tx-id <id>", "transaction hash or reference of the manual delivery", nonBlank("--tx-id"))
    )
  ).action((id: OrderId, options: MarkDoneOptions) => runCommand(CliCore, markDone(id, options), options))
}
