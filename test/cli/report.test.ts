import { assert, layer } from "@effect/vitest"
import { tashkentDay } from "@resale/core"
import { OrderService } from "@resale/core/orders/OrderService.ts"
import { Payments } from "@resale/core/payments/Payments.ts"
import { TopupService } from "@resale/core/topups/TopupService.ts"
import { Effect } from "effect"
import { cardTopup, cli, CliTestLayer, fund, json, receiptTopup, seedUser } from "./support/CliHarness.ts"

layer(CliTestLayer, { timeout: "60 seconds", excludeTestServices: true })(
  "resale report (in process, real PostgreSQL)",
  (it) => {
    it.effect("prints the period's money as a table, snake_case JSON and CSV; bad dates are refused in words", () =>
      Effect.gen(function* () {
        const user = yield* seedUser("rita_report")
        const card = yield* cardTopup(user.id, 40_000)
        yield* Payments.use((p) => p.incoming({ amountUzs: card.payableUzs, externalId: "bank-report-1" })).pipe(
          Effect.orDie
        )
        const receipt = yield* receiptTopup(user.id, 25_000)
        yield* TopupService.use((t) => t.approve(receipt.id)).pipe(Effect.orDie)
        yield* fund(user.id, 5_000)
        const order = yield* OrderService.use((o) =>
          o.create(user.id, { kind: "stars", recipient: "durov", stars: 50 })
        ).pipe(Effect.orDie)
        const today = tashkentDay(new Date())
        const received = card.payableUzs + 25_000

        const body = json(yield* cli(["report", "--from", today, "--to", today, "--ton-rate", "40000", "--json"]))
        assert.strictEqual(body.period, "day")
        assert.strictEqual(body.timezone, "Asia/Tashkent")
        assert.strictEqual(body.ton_rate_uzs, 40_000)
        assert.strictEqual(body.rows.length, 1)
        const total = body.total
        assert.strictEqual(total.received_bank_uzs, card.payableUzs)
        assert.strictEqual(total.received_receipt_uzs, 25_000)
        assert.strictEqual(total.received_uzs, received)
        assert.strictEqual(total.spent_stars_uzs, order.priceUzs)
        assert.strictEqual(total.adjustments_uzs, 5_000)
        assert.strictEqual(total.outstanding_end_uzs - total.outstanding_start_uzs, received - order.priceUzs + 5_000)
        assert.strictEqual(total.ton_spent_nano, "0")
        assert.strictEqual(total.margin_uzs, order.priceUzs)
        assert.isTrue(Object.keys(total).every((k) => /^[a-z0-9_]+$/.test(k)))

        const csv = yield* cli(["report", "--from", today, "--to", today, "--csv"])
        assert.strictEqual(csv.code, 0, csv.stderr)
        const lines = csv.stdout.trimEnd().split("\r\n")
        assert.strictEqual(lines.length, 3)
        assert.isTrue(lines[0]!.startsWith("period_start,period_last,received_bank_uzs"))
        assert.isTrue(lines[1]!.startsWith(`${today},${today},${card.payableUzs},25000,`))
        assert.isTrue(lines[2]!.startsWith(`total,${today},`))

        const text = yield* cli(["report", "--period", "month", "--from", today, "--to", today])
        assert.strictEqual(text.code, 0, text.stderr)
        assert.include(text.stdout, `Report by month, ${today} to ${today} (Tashkent time`)
        assert.match(
          text.stdout,
          new RegExp(`^${today.slice(0, 7)}-01\\s+${received.toLocaleString("en-US").replace(/,/g, " ")}\\s`, "m")
        )
        assert.include(text.stdout, "Margin: give --ton-rate <UZS per TON> to see it.")

        const backwards = yield* cli(["report", "--from", "2026-03-02", "--to", "2026-03-01"])
        assert.strictEqual(backwards.code, 1)
        assert.include(backwards.stderr, "To must not be before from.")
        const notADate = yield* cli(["report", "--from", "2026-02-30", "--json"])
        assert.strictEqual(json(notADate).code, "ReportRequestInvalid")
        const both = yield* cli(["report", "--csv", "--json"])
        assert.strictEqual(both.code, 2)
      })
    )
  }
)
