import { assert, layer } from "@effect/vitest"
import { Balances } from "@resale/core/ledger/Balances.ts"
import { TopupService } from "@resale/core/topups/TopupService.ts"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import {
  CliDatabase,
  PNG,
  cardTopup,
  cli,
  cliOnTerminal,
  CliTestLayer,
  json,
  receiptTopup,
  SCRIPT_BIN,
  seedUser
} from "./support/CliHarness.ts"

const operator = { kind: "operator" as const }

layer(CliTestLayer, { timeout: "60 seconds", excludeTestServices: true })(
  "resale topups (in process, real PostgreSQL)",
  (it) => {
    it.effect("list filters by status and user, as a table and as JSON", () =>
      Effect.gen(function* () {
        const ann = yield* seedUser("ann_topups")
        const bob = yield* seedUser("bob_topups")
        const review = yield* receiptTopup(ann.id, 120_000)
        const pending = yield* cardTopup(bob.id, 50_000)

        const all = json(yield* cli(["topups", "list", "--json"]))
        const ids = all.topups.map((t: { topup_id: number }) => t.topup_id)
        assert.includeMembers(ids, [review.id, pending.id])

        const reviewOnly = json(yield* cli(["topups", "list", "--status", "review", "--json"]))
        assert.deepStrictEqual(
          reviewOnly.topups.map((t: { topup_id: number }) => t.topup_id),
          [review.id]
        )
        assert.strictEqual(reviewOnly.topups[0].amount_uzs, 120_000)

        const bobs = json(yield* cli(["topups", "list", "--user", "@bob_topups", "--json"]))
        assert.deepStrictEqual(
          bobs.topups.map((t: { topup_id: number }) => t.topup_id),
          [pending.id]
        )
        assert.strictEqual(bobs.total, 1)

        const table = yield* cli(["topups", "list", "--user", String(ann.id)])
        assert.strictEqual(table.code, 0)
        assert.match(table.stdout, /ID\s+USER\s+METHOD/)
        assert.match(
          table.stdout,
          new RegExp(`^\\s*${review.id}\\s+${ann.id}\\s+receipt\\s+120 000\\s+120 000\\s+review`, "m")
        )
      })
    )

    it.effect("show prints one top-up; an unknown id fails with exit 1 and a clear message", () =>
      Effect.gen(function* () {
        const user = yield* seedUser("cat_topups")
        const topup = yield* cardTopup(user.id, 75_000)
        const shown = json(yield* cli(["topups", "show", String(topup.id), "--json"]))
        assert.strictEqual(shown.topup_id, topup.id)
        assert.strictEqual(shown.status, "pending")
        assert.strictEqual(shown.payable_uzs, topup.payableUzs)

        const missing = yield* cli(["topups", "show", "999999"])
        assert.strictEqual(missing.code, 1)
        assert.strictEqual(missing.stdout, "")
        assert.include(missing.stderr, "Top-up #999999 does not exist.")

        const missingJson = yield* cli(["topups", "show", "999999", "--json"])
        assert.strictEqual(missingJson.code, 1)
        assert.deepStrictEqual(json(missingJson), {
          ok: false,
          code: "TopupNotFound",
          message: "Top-up #999999 does not exist."
        })
      })
    )

    it.effect("receipt saves the uploaded file byte for byte; never overwrites unless --force", () =>
      Effect.gen(function* () {
        const { dataDir } = yield* CliDatabase
        const user = yield* seedUser("ivy_topups")
        const topup = yield* receiptTopup(user.id, 45_000, PNG)
        const out = join(dataDir, `receipt-${topup.id}.png`)
        const saved = yield* cli(["topups", "receipt", String(topup.id), "--out", out, "--json"])
        assert.strictEqual(saved.code, 0, saved.stderr)
        assert.deepStrictEqual(json(saved), {
          topup_id: topup.id,
          path: out,
          content_type: "image/png",
          bytes: PNG.length
        })
        assert.deepStrictEqual(new Uint8Array(readFileSync(out)), PNG)

        const exists = yield* cli(["topups", "receipt", String(topup.id), "--out", out])
        assert.strictEqual(exists.code, 1)
        assert.include(exists.stderr, "exists; choose another --out or pass --force")
        assert.strictEqual((yield* cli(["topups", "receipt", String(topup.id), "--out", out, "--force"])).code, 0)

        const card = yield* cardTopup(user.id, 10_000)
        const none = yield* cli(["topups", "receipt", String(card.id), "--out", join(dataDir, "none.bin")])
        assert.strictEqual(none.code, 1)
        assert.include(none.stderr, `Top-up #${card.id} has no receipt.`)
      })
    )

    it.effect("approve credits the payable amount once; approving again is an invalid transition", () =>
      Effect.gen(function* () {
        const user = yield* seedUser("dan_topups")
        const topup = yield* receiptTopup(user.id, 90_000)
        const approved = yield* cli([
          "topups",
          "approve",
          String(topup.id),
          "--note",
          "receipt checked",
          "--yes",
          "--json"
        ])
        assert.strictEqual(approved.code, 0, approved.stderr)
        const body = json(approved)
        assert.strictEqual(body.status, "paid")
        assert.strictEqual(body.credited_uzs, 90_000)
        assert.strictEqual(body.admin_note, "receipt checked")
        assert.strictEqual(body.confirmed_by, "operator")
        assert.strictEqual(yield* Balances.use((b) => b.balance(user.id)), 90_000)

        const again = yield* cli(["topups", "approve", String(topup.id), "--yes"])
        assert.strictEqual(again.code, 1)
        assert.include(again.stderr, `Top-up #${topup.id} is paid; it cannot be approved or marked paid.`)
        assert.strictEqual(yield* Balances.use((b) => b.balance(user.id)), 90_000)
      })
    )

    it.effect("approve of a receipt repeating a recent credit needs --confirm-duplicate", () =>
      Effect.gen(function* () {
        const user = yield* seedUser("eve_topups")
        const first = yield* receiptTopup(user.id, 64_000)
        assert.strictEqual((yield* cli(["topups", "approve", String(first.id), "--yes"])).code, 0)
        const second = yield* receiptTopup(user.id, 64_000)
        const held = yield* cli(["topups", "approve", String(second.id), "--yes"])
        assert.strictEqual(held.code, 1)
        assert.include(held.stderr, `Top-up #${first.id} of 64 000 UZS was credited to the same user`)
        assert.include(held.stderr, "--confirm-duplicate")
        assert.strictEqual(yield* Balances.use((b) => b.balance(user.id)), 64_000)
        const confirmed = yield* cli(["topups", "approve", String(second.id), "--confirm-duplicate", "--yes", "--json"])
        assert.strictEqual(confirmed.code, 0, confirmed.stderr)
        assert.strictEqual(json(confirmed).status, "paid")
        assert.strictEqual(yield* Balances.use((b) => b.balance(user.id)), 128_000)
      })
    )

    it.effect("reject moves a top-up to rejected with the note; nothing is credited", () =>
      Effect.gen(function* () {
        const user = yield* seedUser("eve_topups")
        const topup = yield* receiptTopup(user.id, 40_000)
        const run = yield* cli(["topups", "reject", String(topup.id), "--note", "blurry receipt", "--yes"])
        assert.strictEqual(run.code, 0, run.stderr)
        assert.include(run.stdout, `Top-up #${topup.id} is now rejected.`)
        const stored = yield* TopupService.use((s) => s.find(operator, topup.id))
        assert.strictEqual(stored.status, "rejected")
        assert.strictEqual(stored.adminNote, "blurry receipt")
        assert.strictEqual(yield* Balances.use((b) => b.balance(user.id)), 0)

        const approveRejected = yield* cli(["topups", "approve", String(topup.id), "--yes"])
        assert.strictEqual(approveRejected.code, 1)
        assert.include(approveRejected.stderr, "is rejected; it cannot be approved")
      })
    )

    it.effect("mark-paid credits a pending card top-up's payable amount", () =>
      Effect.gen(function* () {
        const user = yield* seedUser("fay_topups")
        const topup = yield* cardTopup(user.id, 30_000)
        const run = yield* cli(["topups", "mark-paid", String(topup.id), "--yes", "--json"])
        assert.strictEqual(run.code, 0, run.stderr)
        assert.strictEqual(json(run).confirmed_by, "admin_api")
        assert.strictEqual(yield* Balances.use((b) => b.balance(user.id)), topup.payableUzs)
      })
    )

    it.effect("without --yes and without a terminal, approve refuses (exit 2) and changes nothing", () =>
      Effect.gen(function* () {
        const user = yield* seedUser("gus_topups")
        const topup = yield* receiptTopup(user.id, 60_000)
        const run = yield* cli(["topups", "approve", String(topup.id)], { input: "y\n" })
        assert.strictEqual(run.code, 2)
        assert.include(run.stderr, "refusing to approve top-up")
        assert.include(run.stderr, "pass --yes")
        const stored = yield* TopupService.use((s) => s.find(operator, topup.id))
        assert.strictEqual(stored.status, "review")
        assert.strictEqual(yield* Balances.use((b) => b.balance(user.id)), 0)
      })
    )

    it.effect.skipIf(SCRIPT_BIN === undefined)(
      "on a terminal, approve asks first: 'n' changes nothing, 'y' approves",
      () =>
        Effect.gen(function* () {
          const user = yield* seedUser("hal_topups")
          const topup = yield* receiptTopup(user.id, 80_000)
          const declined = yield* cliOnTerminal(["topups", "approve", String(topup.id)], "n\n")
          assert.strictEqual(declined.code, 1, declined.stdout)
          assert.include(
            declined.stdout,
            `Approve top-up #${topup.id} (review) and credit 80 000 UZS to user #${user.id}? [y/N]`
          )
          assert.include(declined.stdout, "Not confirmed; nothing was changed.")
          assert.strictEqual(yield* Balances.use((b) => b.balance(user.id)), 0)

          const accepted = yield* cliOnTerminal(["topups", "approve", String(topup.id)], "y\n")
          assert.strictEqual(accepted.code, 0, accepted.stdout)
          assert.include(accepted.stdout, `Top-up #${topup.id} is now paid.`)
          assert.strictEqual(yield* Balances.use((b) => b.balance(user.id)), 80_000)
        })
    )

    it.effect("bad flag values and ids are usage errors (exit 2) that never reach the database", () =>
      Effect.gen(function* () {
        const badStatus = yield* cli(["topups", "list", "--status", "approved"])
        assert.strictEqual(badStatus.code, 2)
        assert.include(badStatus.stderr, "Allowed choices are pending, review, paid, cancelled, rejected, expired")

        const badId = yield* cli(["topups", "approve", "12abc", "--yes"])
        assert.strictEqual(badId.code, 2)
        assert.include(badId.stderr, "the top-up id must be a positive whole number, got '12abc'")

        const badLimit = yield* cli(["topups", "list", "--limit", "0"])
        assert.strictEqual(badLimit.code, 2)
        assert.include(badLimit.stderr, "--limit must be a whole number between 1 and 100")

        const unknownUser = yield* cli(["topups", "list", "--user", "@nobody_here"])
        assert.strictEqual(unknownUser.code, 1)
        assert.include(unknownUser.stderr, "No such user.")
      })
    )
  }
)
