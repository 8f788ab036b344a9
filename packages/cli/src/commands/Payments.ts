import { PaymentId, TopupId } from "@resale/core/ids.ts"
import { type IncomingPayment, PaymentStatus } from "@resale/core/payments/IncomingPayment.ts"
import { Payments } from "@resale/core/payments/Payments.ts"
import { TopupService } from "@resale/core/topups/TopupService.ts"
import { startOfTashkentDay } from "@resale/core/reports/ReportPeriods.ts"
import { type Command, Option } from "commander"
import { Effect } from "effect"
import { localDay, positiveId, wholeNumber } from "../Args.ts"
import { CliUsageError } from "../CliErrors.ts"
import { CliCore } from "../Layers.ts"
import { confirm } from "../Confirmation.ts"
import { fields, formatUzs, listing, output } from "../Output.ts"
import { topupJson } from "../Records.ts"
import { type CommonOptions, runCommand } from "../Runner.ts"
import { choiceOption, operator, type PageOptions, pageOf, withJson, withPage, withYes } from "./Common.ts"
import { topupText } from "./Topups.ts"

const paymentRow = (p: IncomingPayment) => [
  p.id,
  formatUzs(p.amountUzs),
  p.cardLast4,
  p.externalId,
  p.status,
  p.topupId === null ? null : `#${p.topupId}`,
  p.createdAt
]

const paymentText = (p: IncomingPayment): string =>
  fields([
    ["Payment", `#${p.id}`],
    ["Amount UZS", formatUzs(p.amountUzs)],
    ["Card", p.cardLast4 === null ? null : `*${p.cardLast4}`],
    ["External id", p.externalId],
    ["Status", p.status],
    ["Top-up", p.topupId === null ? null : `#${p.topupId}`],
    ["Received", p.createdAt],
    ["Updated", p.updatedAt]
  ])

interface ListOptions extends CommonOptions, PageOptions {
  readonly unmatched?: boolean
  readonly status?: PaymentStatus | "unresolved" | "assigned"
  readonly from?: string
  readonly to?: string
  readonly amount?: number
  readonly newestFirst?: boolean
}

/** Statuses an operator has to resolve: nothing matched, or more than one top-up did. */
const UNRESOLVED: ReadonlyArray<PaymentStatus> = ["unmatched", "ambiguous"]
const DAY_MS = 86_400_000

/** The filters of the panel's bank payments page, as the core's `PaymentFilter`. */
const filterOf = (options: ListOptions) => {
  const status = options.unmatched === true ? "unresolved" : options.status
  return {
    ...pageOf(options),
    ...(status === undefined
      ? {}
      : status === "assigned"
        ? { matchedBy: "operator" as const }
        : { status: status === "unresolved" ? UNRESOLVED : ([status] as ReadonlyArray<PaymentStatus>) }),
    // Whole days in Tashkent time, both ends included.
    ...(options.from === undefined ? {} : { from: startOfTashkentDay(options.from) }),
    ...(options.to === undefined ? {} : { to: new Date(startOfTashkentDay(options.to).getTime() + DAY_MS) }),
    ...(options.amount === undefined ? {} : { amountUzs: options.amount }),
    ...(options.newestFirst === true ? { newestFirst: true } : {})
  }
}

const list = (options: ListOptions) =>
  Effect.gen(function* () {
    if (options.from !== undefined && options.to !== undefined && options.from > options.to) {
      return yield* new CliUsageError({ message: `--from ${options.from} is after --to ${options.to}.` })
    }
    const page = yield* (yield* Payments).list(filterOf(options))
    const unresolved = options.unmatched === true || options.status === "unresolved"
    return output(
      { items: page.items, total: page.total },
      listing(
        ["ID", "AMOUNT UZS", "CARD", "EXTERNAL ID", "STATUS", "TOPUP", "RECEIVED"],
        page.items.map(paymentRow),
        {
          total: page.total,
          offset: options.offset
        },
        unresolved ? "unresolved payments" : "payments"
      )
    )
  })

const show = (id: PaymentId) =>
  Effect.gen(function* () {
    const payment = yield* (yield* Payments).find(id)
    return output(payment, paymentText(payment))
  })

interface AssignOptions extends CommonOptions {
  readonly yes?: boolean
  readonly confirmDuplicate?: boolean
}

const assign = (paymentId: PaymentId, topupId: TopupId, options: AssignOptions) =>
  Effect.gen(function* () {
    const payments = yield* Payments
    const payment = yield* payments.find(paymentId)
    const topup = yield* (yield* TopupService).find(operator, topupId)
    const difference =
      payment.amountUzs === topup.payableUzs
        ? ""
        : ` (the top-up's payable amount is ${formatUzs(topup.payableUzs)} UZS; the amount received is what gets credited)`
    yield* confirm(
      `Assign payment #${payment.id} of ${formatUzs(payment.amountUzs)} UZS to top-up #${topup.id} (${topup.status}) ` +
        `and credit ${formatUzs(payment.amountUzs)} UZS to user #${topup.userId}${difference}?`,
      { yes: options.yes === true, action: `assign payment #${payment.id}` }
    )
    const result = yield* payments.assign(payment.id, topup.id, { confirmDuplicate: options.confirmDuplicate === true })
    const confirmed = result.topup._tag === "Some" ? result.topup.value : topup
    return output(
      { payment: result.payment, topup: topupJson(confirmed) },
      `Payment #${result.payment.id} is matched to top-up #${confirmed.id}, now ${confirmed.status}.\n\n${topupText(confirmed)}`
    )
  })

export const registerPayments = (program: Command): void => {
  const payments = program.command("payments").description("card payments reported by the bank relay")

  withPage(
    withJson(
      payments
        .command("list")
        .description("list incoming payments, oldest first (--newest-first: as the panel lists them)")
        .option(
          "--unmatched",
          "only payments that wait for an operator (unmatched or ambiguous); the same as --status unresolved"
        )
        .addOption(
          choiceOption(
            "--status <status>",
            "only payments in this status; unresolved: unmatched or ambiguous; assigned: matched by an operator",
            [...PaymentStatus.literals, "unresolved", "assigned"]
          ).conflicts("unmatched")
        )
        .addOption(
          new Option("--from <date>", "received on or after this day, YYYY-MM-DD (Tashkent time)").argParser(
            localDay("--from")
          )
        )
        .addOption(
          new Option("--to <date>", "received on or before this day, YYYY-MM-DD (Tashkent time)").argParser(
            localDay("--to")
          )
        )
        .addOption(
          new Option("--amount <uzs>", "only payments of exactly this many UZS").argParser(wholeNumber("--amount", 1))
        )
        .option("--newest-first", "the latest payment first")
    )
  ).action((options: ListOptions) => runCommand(CliCore, list(options), options))

  withJson(
    payments
      .command("show")
      .description("one payment in full")
      .argument("<id>", "payment id", positiveId("the payment id", PaymentId))
  ).action((id: PaymentId, options: CommonOptions) => runCommand(CliCore, show(id), options))

  withYes(
    withJson(
      payments
        .command("assign")
        .description(
          "resolve an unmatched, ambiguous or late payment: confirm this top-up with it and credit the amount received"
        )
        .argument("<payment_id>", "payment id", positiveId("the payment id", PaymentId))
        .argument("<topup_id>", "top-up id (pending, review or expired)", positiveId("the top-up id", TopupId))
        .option(
          "--confirm-duplicate",
          "the user was credited this amount on a receipt alone, and you checked this payment is other money"
        )
    )
  ).action((paymentId: PaymentId, topupId: TopupId, options: AssignOptions) =>
    runCommand(CliCore, assign(paymentId, topupId, options), options)
  )
}
