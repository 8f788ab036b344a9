import { assert, layer } from "@effect/vitest"
import { PricingService } from "@resale/core/pricing/PricingService.ts"
import { DEFAULT_PRICES } from "@resale/core/pricing/Prices.ts"
import { pricingOut } from "@resale/wire"
import { Effect } from "effect"
import { cli, CliTestLayer, json } from "./support/CliHarness.ts"

const current = PricingService.use((p) => p.get)

layer(CliTestLayer, { timeout: "60 seconds", excludeTestServices: true })(
  "resale pricing (in process, real PostgreSQL)",
  (it) => {
    it.effect("show prints the current prices as a table and as JSON", () =>
      Effect.gen(function* () {
        const run = yield* cli(["pricing", "show"])
        assert.strictEqual(run.code, 0)
        assert.match(run.stdout, /1 star\s+230/)
        assert.match(run.stdout, /premium, 12 months\s+410 000/)
        // The API's pricing answer (snake_case, with the mode: sandbox here, no production setting given).
        assert.deepStrictEqual(json(yield* cli(["pricing", "show", "--json"])), pricingOut(DEFAULT_PRICES, true))
      })
    )

    it.effect("set changes the given prices and keeps the others; no change asks nothing", () =>
      Effect.gen(function* () {
        const run = yield* cli(["pricing", "set", "--star", "250", "--premium-6", "240_000", "--yes", "--json"])
        assert.strictEqual(run.code, 0, run.stderr)
        const expected = { ...DEFAULT_PRICES, starPriceUzs: 250, premium6MonthUzs: 240_000 }
        assert.deepStrictEqual(json(run), {
          ...pricingOut(DEFAULT_PRICES, true),
          star_price_uzs: 250,
          premium_6_month_uzs: 240_000
        })
        assert.deepStrictEqual({ ...(yield* current) }, expected)

        const all = yield* cli([
          "pricing",
          "set",
          "--star",
          "260",
          "--premium-3",
          "171000",
          "--premium-6",
          "241000",
          "--premium-12",
          "411000",
          "--yes"
        ])
        assert.strictEqual(all.code, 0, all.stderr)
        assert.match(all.stdout, /1 star\s+250\s+260/)
        assert.deepStrictEqual(
          { ...(yield* current) },
          {
            starPriceUzs: 260,
            premium3MonthUzs: 171_000,
            premium6MonthUzs: 241_000,
            premium12MonthUzs: 411_000
          }
        )

        // Same values again: nothing to confirm, nothing written, so no --yes is needed even without a terminal.
        const same = yield* cli(["pricing", "set", "--star", "260"])
        assert.strictEqual(same.code, 0, same.stderr)
        assert.include(same.stdout, "Prices unchanged.")
      })
    )

    it.effect("bad values are usage errors; no flag at all, or no confirmation, changes nothing", () =>
      Effect.gen(function* () {
        const before = yield* current
        const zero = yield* cli(["pricing", "set", "--star", "0", "--yes"])
        assert.strictEqual(zero.code, 2)
        assert.include(zero.stderr, "--star must be a whole number at least 1, got '0'")
        const fraction = yield* cli(["pricing", "set", "--premium-3", "1.5", "--yes"])
        assert.strictEqual(fraction.code, 2)
        const unknown = yield* cli(["pricing", "set", "--premium-9", "100", "--yes"])
        assert.strictEqual(unknown.code, 2)
        assert.include(unknown.stderr, "unknown option '--premium-9'")

        const nothing = yield* cli(["pricing", "set", "--yes", "--json"])
        assert.strictEqual(nothing.code, 2)
        assert.deepStrictEqual(json(nothing), {
          ok: false,
          code: "Usage",
          message: "give at least one of --star, --premium-3, --premium-6, --premium-12."
        })

        const unconfirmed = yield* cli(["pricing", "set", "--star", "999"])
        assert.strictEqual(unconfirmed.code, 2)
        assert.include(unconfirmed.stderr, "refusing to change prices without confirmation")
        assert.deepStrictEqual(yield* current, before)
      })
    )
  }
)
