import type { Prices } from "@resale/core/pricing/Prices.ts"
import { type PricesInput, PricingService } from "@resale/core/pricing/PricingService.ts"
import { readSettings } from "@resale/config"
import { pricingOut } from "@resale/wire"
import { type Command, Option } from "commander"
import { Effect } from "effect"
import { wholeNumber } from "../Args.ts"
import { CliUsageError } from "../CliErrors.ts"
import { CliCore } from "../Layers.ts"
import { confirm } from "../Confirmation.ts"
import { formatUzs, output, table } from "../Output.ts"
import { type CommonOptions, runCommand } from "../Runner.ts"
import { withJson, withYes } from "./Common.ts"

const LABELS: ReadonlyArray<readonly [keyof Prices, string, string]> = [
  ["starPriceUzs", "star", "1 star"],
  ["premium3MonthUzs", "premium-3", "premium, 3 months"],
  ["premium6MonthUzs", "premium-6", "premium, 6 months"],
  ["premium12MonthUzs", "premium-12", "premium, 12 months"]
]

const pricesTable = (prices: Prices, previous?: Prices): string =>
  previous === undefined
    ? table(
        ["ITEM", "PRICE UZS"],
        LABELS.map(([key, , label]) => [label, formatUzs(prices[key])])
      )
    : table(
        ["ITEM", "BEFORE UZS", "NOW UZS"],
        LABELS.map(([key, , label]) => [label, formatUzs(previous[key]), formatUzs(prices[key])])
      )

/** The API's pricing answer: `sandbox` is the mode the one configuration decides, as the server's. */
const pricingJson = (prices: Prices) => Effect.map(readSettings("cli"), (app) => pricingOut(prices, app.sandbox))

const show = Effect.gen(function* () {
  const prices = yield* (yield* PricingService).get
  return output(yield* pricingJson(prices), pricesTable(prices))
})

interface SetOptions extends CommonOptions {
  readonly yes?: boolean
  readonly star?: number
  readonly premium3?: number
  readonly premium6?: number
  readonly premium12?: number
}

/** Prices not given keep their current value; the four are written together, as the web panel does. */
const set = (options: SetOptions) =>
  Effect.gen(function* () {
    const pricing = yield* PricingService
    const given: Partial<PricesInput> = {
      ...(options.star === undefined ? {} : { starPriceUzs: options.star }),
      ...(options.premium3 === undefined ? {} : { premium3MonthUzs: options.premium3 }),
      ...(options.premium6 === undefined ? {} : { premium6MonthUzs: options.premium6 }),
      ...(options.premium12 === undefined ? {} : { premium12MonthUzs: options.premium12 })
    }
    if (Object.keys(given).length === 0) {
      return yield* new CliUsageError({
        message: "give at least one of --star, --premium-3, --premium-6, --premium-12."
      })
    }
    const current = yield* pricing.get
    const next: PricesInput = { ...current, ...given }
    const changes = LABELS.filter(([key]) => next[key] !== current[key]).map(
      ([key, , label]) => `${label}: ${formatUzs(current[key])} -> ${formatUzs(next[key])} UZS`
    )
    if (changes.length === 0) return output(yield* pricingJson(current), `Prices unchanged.\n\n${pricesTable(current)}`)
    yield* confirm(`Change prices (${changes.join("; ")})? New orders are charged at these prices.`, {
      yes: options.yes === true,
      action: "change prices"
    })
    const prices = yield* pricing.set(next)
    return output(yield* pricingJson(prices), `Prices updated.\n\n${pricesTable(prices, current)}`)
  })

const priceOption = (flag: string, label: string) =>
  new Option(`--${flag} <uzs>`, `price of ${label} in UZS`).argParser(wholeNumber(`--${flag}`, 1))

export const registerPricing = (program: Command): void => {
  const pricing = program.command("pricing").description("the four operator-set prices")

  withJson(pricing.command("show").description("current prices")).action((options: CommonOptions) =>
    runCommand(CliCore, show, options)
  )

  const setCommand = pricing.command("set").description("change prices; prices not given keep their value")
  for (const [, flag, label] of LABELS) setCommand.addOption(priceOption(flag, label))
  withYes(withJson(setCommand)).action((options: SetOptions) => runCommand(CliCore, set(options), options))
}
