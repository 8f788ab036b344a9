import type { ReportRow } from "@resale/core/reports/Report.ts"
import { reportCsv, reportJson } from "@resale/core/reports/ReportFormats.ts"
import { REPORT_PERIODS, type ReportPeriod, tashkentDay } from "@resale/core/reports/ReportPeriods.ts"
import { Reports } from "@resale/core/reports/Reports.ts"
import { type Command, Option } from "commander"
import { Effect } from "effect"
import { wholeNumber } from "../Args.ts"
import { CliCore } from "../Layers.ts"
import { fileOutput, formatUzs, output, table } from "../Output.ts"
import { type CommonOptions, runCommand } from "../Runner.ts"
import { choiceOption, withJson } from "./Common.ts"

interface ReportOptions extends CommonOptions {
  readonly period: ReportPeriod
  readonly from?: string
  readonly to?: string
  readonly tonRate?: number
  readonly csv?: boolean
}

/** Nanoton as TON with up to 4 decimals, for the table (JSON and CSV keep exact nanoton). */
const ton = (nano: bigint): string => (Number(nano) / 1e9).toFixed(4)

const HEADERS = [
  "PERIOD",
  "RECEIVED",
  "BANK",
  "RECEIPT",
  "ADMIN API",
  "SPENT",
  "REFUNDS",
  "ADJUST",
  "OWED AT END",
  "TON SPENT",
  "TON/STAR",
  "MARGIN"
]

const rowCells = (label: string, r: ReportRow) => [
  label,
  formatUzs(r.received.total),
  formatUzs(r.received.bank),
  formatUzs(r.received.receipt),
  formatUzs(r.received.adminApi),
  formatUzs(r.spent.total),
  formatUzs(r.refunds.total),
  formatUzs(r.adjustments),
  formatUzs(r.outstandingEnd),
  ton(r.ton.totalNano),
  r.nanoPerStar === null ? null : ton(r.nanoPerStar),
  r.margin === null ? null : formatUzs(r.margin.marginUzs)
]

const report = (options: ReportOptions) =>
  Effect.gen(function* () {
    const today = tashkentDay(new Date())
    const built = yield* (yield* Reports).build({
      period: options.period,
      from: options.from ?? `${today.slice(0, 7)}-01`,
      to: options.to ?? today,
      tonRateUzs: options.tonRate ?? null
    })
    // Byte for byte the panel's "Download CSV" (CRLF lines, the last one ended too).
    if (options.csv === true) return fileOutput(reportJson(built), reportCsv(built))
    const t = built.total
    const spentByKind = `stars ${formatUzs(t.spent.stars)}, Premium ${formatUzs(t.spent.premium)}, gifts ${formatUzs(t.spent.gift)}, tiers ${formatUzs(t.spent.tier)}`
    return output(
      reportJson(built),
      [
        `Report by ${built.period}, ${built.from} to ${built.to} (Tashkent time; UZS; TON with network fees)`,
        "",
        table(HEADERS, [...built.rows.map((r) => rowCells(r.start, r)), rowCells("total", t)]),
        "",
        `Spent by kind: ${spentByKind}. Refunds: ${formatUzs(t.refunds.total)}.`,
        `Owed to users: ${formatUzs(t.outstandingStart)} at the start, ${formatUzs(t.outstandingEnd)} at the end.`,
        built.tonRateUzs === null
          ? "Margin: give --ton-rate <UZS per TON> to see it."
          : `Margin at ${formatUzs(built.tonRateUzs)} UZS per TON: sales ${formatUzs(t.margin!.salesUzs)} - TON cost ${formatUzs(t.margin!.costUzs)} = ${formatUzs(t.margin!.marginUzs)}.`
      ].join("\n")
    )
  })

export const registerReport = (program: Command): void => {
  withJson(
    program
      .command("report")
      .description("money in, money out and what users are owed, per day, week or month (Tashkent time)")
      .addOption(choiceOption("--period <period>", "one row per", REPORT_PERIODS).default("day"))
      .addOption(new Option("--from <date>", "first day, YYYY-MM-DD (default: the 1st of this month)"))
      .addOption(new Option("--to <date>", "last day, YYYY-MM-DD (default: today)"))
      .addOption(
        new Option("--ton-rate <uzs>", "UZS per 1 TON, for the margin").argParser(
          wholeNumber("--ton-rate", 1, 1_000_000_000)
        )
      )
      .addOption(new Option("--csv", "print CSV (one line per period, then the total)").conflicts("json"))
  ).action((options: ReportOptions) => runCommand(CliCore, report(options), options))
}
