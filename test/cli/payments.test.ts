import { assert, layer } from "@effect/vitest"
import { Balances } from "@resale/core/ledger/Balances.ts"
import type { Uzs } from "@resale/core/money/Uzs.ts"
import { Payments } from "@resale/core/payments/Payments.ts"
import { IncomingPayments } from "@resale/core/ports/IncomingPayments.ts"
import { TopupService } from "@resale/core/topups/TopupService.ts"
import { Effect } from "effect"
import { cardTopup, cli, CliTestLayer, json, receiptTopup, seedUser } from "./support/CliHarness.ts"

const operator = { kind: "operator" as const }

/** A bank payment that matches no pending top-up, so it waits for an operator. */
const unmatchedPayment = (amountUzs: number, externalId: string) =>
  Payments.use((p) => p.incoming({ amountUzs, cardLast4: "4242", externalId })).pipe(Effect.orDie)

layer(CliTestLayer, { timeout: "60 seconds", excludeTestServices: true })(
  "resale payments (in process, real PostgreSQL)",
  (it) => {
    it.effect("list --unmatched shows only payments waiting for an operator", () =>
      Effect.gen(function* () {
        const user = yield* seedUser("ann_payments")
        const topup = yield* cardTopup(user.id, 10_000)
        const matched = yield* Payments.use((p) =>
          p.incoming({ amountUzs: topup.payableUzs, externalId: "bank-matched-1" })
        ).pipe(Effect.orDie)
        assert.strictEqual(matched.outcome, "matched")
        const stray = yield* unmatchedPayment(123_457, "bank-stray-1")
        assert.strictEqual(stray.outcome, "unmatched")

        const unresolved = json(yield* cli(["payments", "list", "--unmatched", "--json"]))
        assert.deepStrictEqual(
          unresolved.items.map((p: { id: number }) => p.id),
          [stray.payment.id]
        )
        assert.strictEqual(unresolved.items[0].status, "unmatched")
        assert.strictEqual(unresolved.items[0].external_id, "bank-stray-1")

        const all = json(yield* cli(["payments", "list", "--json"]))
        assert.strictEqual(all.total, 2)
        const onlyMatched = json(yield* cli(["payments", "list", "--status", "matched", "--json"]))
        assert.deepStrictEqual(
          onlyMatched.items.map((p: { topup_id: number }) => p.topup_id),
          [topup.id]
        )

        const table = yield* cli(["payments", "list", "--unmatched"])
        assert.strictEqual(table.code, 0)
        assert.match(
          table.stdout,
          new RegExp(`^\\s*${stray.payment.id}\\s+123 457\\s+4242\\s+bank-stray-1\\s+unmatched`, "m")
        )
        assert.include(table.stdout, "1 unresolved payments")
      })
    )

    it.effect("list filters like the panel's bank payments page: Tashkent days, exact amount, newest first", () =>
      Effect.gen(function* () {
        // Reported on three October days (the relay's clock is the database's): 1 Oct 15:00, 3 Oct 01:00 and 5 Oct 10:00 in Tashkent.
        const at = (iso: string, amountUzs: number, externalId: string) =>
          IncomingPayments.use((p) =>
            p.record({ amountUzs: amountUzs as Uzs, cardLast4: "1111", externalId }, new Date(iso))
          )
        const first = (yield* at("2026-10-01T10:00:00Z", 31_313, "oct-1")).payment
        const late = (yield* at("2026-10-02T20:00:00Z", 42_424, "oct-3")).payment
        const last = (yield* at("2026-10-05T05:00:00Z", 31_313, "oct-5")).payment
        const ids = (args: ReadonlyArray<string>) =>
          Effect.map(cli(["payments", "list", ...args, "--json"]), (run) =>
            json(run).items.map((p: { id: number }) => p.id)
          )

        // 20:00 UTC on the 2nd is already the 3rd in Tashkent: days are the shop's, both ends included.
        assert.deepStrictEqual(yield* ids(["--from", "2026-10-01", "--to", "2026-10-02"]), [first.id])
        assert.deepStrictEqual(yield* ids(["--from", "2026-10-03", "--to", "2026-10-05"]), [late.id, last.id])
        assert.deepStrictEqual(yield* ids(["--from", "2026-10-01", "--to", "2026-10-31", "--newest-first"]), [
          last.id,
          late.id,
          first.id
        ])
        assert.deepStrictEqual(yield* ids(["--amount", "31313", "--newest-first"]), [last.id, first.id])
        assert.deepStrictEqual(yield* ids(["--amount", "31313", "--status", "unresolved"]), [])
        assert.deepStrictEqual(yield* ids(["--amount", "42424", "--status", "received"]), [late.id])

        const table = yield* cli(["payments", "list", "--from", "2026-10-01", "--to", "2026-10-31", "--newest-first"])
        assert.strictEqual(table.code, 0, table.stderr)
        assert.match(table.stdout, new RegExp(`^\\s*${last.id}\\s+31 313\\s+1111\\s+oct-5\\s+received`, "m"))
        assert.include(table.stdout, "3 payments")

        const badDay = yield* cli(["payments", "list", "--from", "2026-02-30"])
        assert.strictEqual(badDay.code, 2)
        assert.include(badDay.stderr, "--from must be a date YYYY-MM-DD, got '2026-02-30'.")
        const backwards = yield* cli(["payments", "list", "--from", "2026-10-05", "--to", "2026-10-01"])
        assert.strictEqual(backwards.code, 2)
        assert.include(backwards.stderr, "--from 2026-10-05 is after --to 2026-10-01.")
        const badAmount = yield* cli(["payments", "list", "--amount", "12.5"])
        assert.strictEqual(badAmount.code, 2)
        assert.include(badAmount.stderr, "--amount must be a whole number at least 1, got '12.5'.")
      })
    )

    it.effect("assign confirms the top-up with the payment and credits the amount actually received, once", () =>
      Effect.gen(function* () {
        const user = yield* seedUser("bob_payments")
        const topup = yield* cardTopup(user.id, 200_000)
        // The customer paid a different amount than the payable one: only an operator can tie them.
        const late = yield* unmatchedPayment(199_000, "bank-late-1")

        const run = yield* cli(["payments", "assign", String(late.payment.id), String(topup.id), "--yes", "--json"])
        assert.strictEqual(run.code, 0, run.stderr)
        const body = json(run)
        assert.strictEqual(body.payment.status, "matched")
        assert.strictEqual(body.payment.topup_id, topup.id)
        assert.strictEqual(body.topup.status, "paid")
        assert.strictEqual(body.topup.credited_uzs, 199_000)
        assert.strictEqual(yield* Balances.use((b) => b.balance(user.id)), 199_000)

        // Assigned by an operator, not matched by its amount: the panel's "assigned" filter.
        const assigned = json(yield* cli(["payments", "list", "--status", "assigned", "--json"]))
        assert.deepStrictEqual(
          assigned.items.map((p: { id: number }) => p.id),
          [late.payment.id]
        )

        const again = yield* cli(["payments", "assign", String(late.payment.id), String(topup.id), "--yes"])
        assert.strictEqual(again.code, 1)
        assert.include(again.stderr, `Payment #${late.payment.id} is already matched; it cannot be assigned again.`)
        assert.strictEqual(yield* Balances.use((b) => b.balance(user.id)), 199_000)
      })
    )

    it.effect("assign to a top-up that is already paid fails and leaves the payment unmatched", () =>
      Effect.gen(function* () {
        const user = yield* seedUser("cat_payments")
        const topup = yield* receiptTopup(user.id, 55_000)
        yield* TopupService.use((s) => s.approve(topup.id)).pipe(Effect.orDie)
        const stray = yield* unmatchedPayment(55_001, "bank-stray-2")

        const run = yield* cli(["payments", "assign", String(stray.payment.id), String(topup.id), "--yes"])
        assert.strictEqual(run.code, 1)
        assert.include(run.stderr, `Top-up #${topup.id} is paid; it cannot be approved or marked paid.`)
        const payment = yield* Payments.use((p) => p.find(stray.payment.id)).pipe(Effect.orDie)
        assert.strictEqual(payment.status, "unmatched")
        assert.strictEqual(payment.topupId, null)
        assert.strictEqual((yield* TopupService.use((s) => s.find(operator, topup.id))).creditedUzs, 55_000)
      })
    )

    it.effect("unknown ids, bad values and a missing confirmation are reported clearly", () =>
      Effect.gen(function* () {
        const user = yield* seedUser("dan_payments")
        const topup = yield* cardTopup(user.id, 20_000)
        const stray = yield* unmatchedPayment(77_777, "bank-stray-3")

        const noPayment = yield* cli(["payments", "assign", "999999", String(topup.id), "--yes"])
        assert.strictEqual(noPayment.code, 1)
        assert.include(noPayment.stderr, "Payment #999999 does not exist.")

        const noTopup = yield* cli(["payments", "assign", String(stray.payment.id), "999999", "--yes", "--json"])
        assert.strictEqual(noTopup.code, 1)
        assert.strictEqual(json(noTopup).code, "TopupNotFound")

        const unconfirmed = yield* cli(["payments", "assign", String(stray.payment.id), String(topup.id)])
        assert.strictEqual(unconfirmed.code, 2)
        assert.include(unconfirmed.stderr, "pass --yes")
        assert.strictEqual(
          (yield* Payments.use((p) => p.find(stray.payment.id)).pipe(Effect.orDie)).status,
          "unmatched"
        )

        const show = json(yield* cli(["payments", "show", String(stray.payment.id), "--json"]))
        assert.strictEqual(show.amount_uzs, 77_777)

        const badStatus = yield* cli(["payments", "list", "--status", "lost"])
        assert.strictEqual(badStatus.code, 2)
        const both = yield* cli(["payments", "list", "--unmatched", "--status", "matched"])
        assert.strictEqual(both.code, 2)
        assert.include(both.stderr, "cannot be used with option '--unmatched'")
        const missingArg = yield* cli(["payments", "assign", String(stray.payment.id)])
        assert.strictEqual(missingArg.code, 2)
        assert.include(missingArg.stderr, "missing required argument 'topup_id'")
      })
    )

    it.effect("assign of a payment that a receipt-only credit may already be needs --confirm-duplicate", () =>
      Effect.gen(function* () {
        const user = yield* seedUser("dan_payments")
        const other = yield* seedUser("eve_payments")
        // The receipt is credited first, on its word alone.
        const receipt = yield* receiptTopup(user.id, 60_000)
        yield* TopupService.use((t) => t.approve(receipt.id)).pipe(Effect.orDie)
        // A card top-up of the same amount (payable 60 001, as 60 000 is held a moment); then the money arrives.
        const holder = yield* cardTopup(other.id, 60_000)
        const card = yield* cardTopup(user.id, 60_000)
        assert.strictEqual(card.payableUzs, 60_001)
        yield* TopupService.use((t) => t.cancel(other.id, holder.id)).pipe(Effect.orDie)
        const money = yield* unmatchedPayment(60_000, "bank-receipt-money")
        assert.strictEqual(money.outcome, "unmatched")

        const held = yield* cli(["payments", "assign", String(money.payment.id), String(card.id), "--yes"])
        assert.strictEqual(held.code, 1)
        assert.include(held.stderr, `Top-up #${receipt.id} of the same user was credited 60 000 UZS on a receipt alone`)
        assert.include(held.stderr, "--confirm-duplicate")
        assert.strictEqual(yield* Balances.use((b) => b.balance(user.id)), 60_000)
        const confirmed = yield* cli([
          "payments",
          "assign",
          String(money.payment.id),
          String(card.id),
          "--confirm-duplicate",
          "--yes",
          "--json"
        ])
        assert.strictEqual(confirmed.code, 0, confirmed.stderr)
        assert.strictEqual(json(confirmed).topup.status, "paid")
        assert.strictEqual(yield* Balances.use((b) => b.balance(user.id)), 120_000)
      })
    )
  }
)
