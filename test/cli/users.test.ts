import { assert, layer } from "@effect/vitest"
import { Accounts } from "@resale/core/accounts/Accounts.ts"
import { Balances } from "@resale/core/ledger/Balances.ts"
import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { cli, CliTestLayer, fund, json, seedUser } from "./support/CliHarness.ts"

layer(CliTestLayer, { timeout: "60 seconds", excludeTestServices: true })(
  "resale users (in process, real PostgreSQL)",
  (it) => {
    it.effect("list searches users and shows balances; show finds a user by id or @username", () =>
      Effect.gen(function* () {
        const ann = yield* seedUser("Ann_Users")
        yield* seedUser("bob_users")
        yield* fund(ann.id, 12_345)

        const found = json(yield* cli(["users", "list", "--search", "ann_u", "--json"]))
        assert.deepStrictEqual(
          found.users.map((u: { user_id: number }) => u.user_id),
          [ann.id]
        )
        assert.strictEqual(found.users[0].balance_uzs, 12_345)

        const table = yield* cli(["users", "list"])
        assert.match(table.stdout, new RegExp(`^\\s*${ann.id}\\s+@Ann_Users\\s+\\d+\\s+12 345`, "m"))

        const byName = json(yield* cli(["users", "show", "@ann_users", "--json"]))
        assert.strictEqual(byName.user.user_id, ann.id)
        assert.strictEqual(byName.balance_uzs, 12_345)
        assert.strictEqual(byName.entries[0].cause, "adjust")
        const byId = yield* cli(["users", "show", String(ann.id)])
        assert.match(byId.stdout, /Balance UZS:\s+12 345/)
        assert.match(byId.stdout, /\+12 345\s+12 345\s+adjust:seed/)

        const nobody = yield* cli(["users", "show", "@nobody_at_all"])
        assert.strictEqual(nobody.code, 1)
        assert.include(nobody.stderr, "No such user.")
        const noId = yield* cli(["users", "show", "987654", "--json"])
        assert.deepStrictEqual(json(noId), { ok: false, code: "UserNotFound", message: "User #987654 does not exist." })
        const notAUser = yield* cli(["users", "show", "ann"])
        assert.strictEqual(notAUser.code, 2)
      })
    )

    it.effect("adjust writes one ledger entry; the same key never moves money twice; debits cannot overdraw", () =>
      Effect.gen(function* () {
        const cat = yield* seedUser("cat_users")
        const credit = yield* cli([
          "users",
          "adjust",
          "@cat_users",
          "--amount",
          "50000",
          "--reason",
          "bank refund #88",
          "--key",
          "ticket-88",
          "--yes",
          "--json"
        ])
        assert.strictEqual(credit.code, 0, credit.stderr)
        const body = json(credit)
        assert.strictEqual(body.created, true)
        assert.strictEqual(body.entry.amount, 50_000)
        assert.strictEqual(body.entry.note, "bank refund #88")
        assert.strictEqual(body.entry.cause_id, "ticket-88")

        const repeat = yield* cli([
          "users",
          "adjust",
          String(cat.id),
          "--amount",
          "50000",
          "--reason",
          "bank refund #88",
          "--key",
          "ticket-88",
          "--yes"
        ])
        assert.strictEqual(repeat.code, 0, repeat.stderr)
        assert.include(repeat.stdout, "was already used by ledger entry")
        assert.strictEqual(yield* Balances.use((b) => b.balance(cat.id)), 50_000)

        const debit = json(
          yield* cli([
            "users",
            "adjust",
            String(cat.id),
            "--amount",
            "-20000",
            "--reason",
            "duplicate credit",
            "--yes",
            "--json"
          ])
        )
        assert.strictEqual(debit.entry.balance_after, 30_000)
        assert.match(debit.key, /^cli:/)

        const overdraw = yield* cli([
          "users",
          "adjust",
          String(cat.id),
          "--amount",
          "-30001",
          "--reason",
          "too much",
          "--yes"
        ])
        assert.strictEqual(overdraw.code, 1)
        assert.include(overdraw.stderr, `User #${cat.id} has 30 000 UZS; 30 001 UZS are needed.`)
        const entries = yield* Balances.use((b) => b.entries(cat.id, { offset: 0, limit: 10 }))
        assert.strictEqual(entries.total, 2)
        assert.strictEqual(yield* Balances.use((b) => b.balance(cat.id)), 30_000)
      })
    )

    it.effect("adjust rejects a zero, fractional or missing amount and a missing reason before touching anything", () =>
      Effect.gen(function* () {
        const dan = yield* seedUser("dan_users")
        for (const amount of ["0", "1.5", "abc", "--"]) {
          const run = yield* cli(["users", "adjust", String(dan.id), "--amount", amount, "--reason", "x", "--yes"])
          assert.strictEqual(run.code, 2, `amount ${amount}: ${run.stderr}`)
        }
        const noReason = yield* cli(["users", "adjust", String(dan.id), "--amount", "100", "--yes"])
        assert.strictEqual(noReason.code, 2)
        assert.include(noReason.stderr, "required option '--reason <text>' not specified")
        const unconfirmed = yield* cli(["users", "adjust", String(dan.id), "--amount", "100", "--reason", "gift"])
        assert.strictEqual(unconfirmed.code, 2)
        assert.strictEqual(yield* Balances.use((b) => b.balance(dan.id)), 0)
      })
    )

    it.effect("rotate-key prints a working key once; rotating again (confirmed) retires the old one", () =>
      Effect.gen(function* () {
        const eve = yield* seedUser("eve_users")
        const first = yield* cli(["users", "rotate-key", "@eve_users", "--json"])
        assert.strictEqual(first.code, 0, first.stderr)
        const key1: string = json(first).api_key
        assert.match(key1, /^rk_[A-Za-z0-9_-]{43}$/)
        assert.strictEqual((yield* Accounts.use((a) => a.authenticate(key1)).pipe(Effect.orDie)).id, eve.id)

        // A key exists now: replacing it cuts off the integration using it, so it needs confirming.
        const unconfirmed = yield* cli(["users", "rotate-key", String(eve.id)])
        assert.strictEqual(unconfirmed.code, 2)
        assert.strictEqual((yield* Accounts.use((a) => a.authenticate(key1)).pipe(Effect.orDie)).id, eve.id)

        const second = yield* cli(["users", "rotate-key", String(eve.id), "--yes"])
        assert.strictEqual(second.code, 0, second.stderr)
        const key2 = second.stdout.trim().split("\n").at(-1)!
        assert.notStrictEqual(key2, key1)
        assert.strictEqual((yield* Accounts.use((a) => a.authenticate(key2)).pipe(Effect.orDie)).id, eve.id)
        const old = yield* Effect.flip(Accounts.use((a) => a.authenticate(key1)))
        assert.strictEqual(old._tag, "ApiKeyInvalid")
      })
    )

    it.effect("rotate-key removes the webhooks registered with the old key unless --keep-webhooks", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient
        const fay = yield* seedUser("fay_users")
        const register = sql`
          INSERT INTO webhook_endpoints (user_id, url, secret, events, created_at)
          VALUES (${fay.id}, 'https://hooks.example.com/a', 'whsec_a', 'order.completed', now()),
                 (${fay.id}, 'https://hooks.example.com/b', 'whsec_b', 'order.completed', now())`
        const count = sql<{ n: bigint }>`SELECT count(*) AS n FROM webhook_endpoints WHERE user_id = ${fay.id}`.pipe(
          Effect.map((rows) => Number(rows[0]?.n))
        )
        yield* register
        const removed = yield* cli(["users", "rotate-key", "@fay_users", "--yes", "--json"])
        assert.strictEqual(removed.code, 0, removed.stderr)
        assert.strictEqual(json(removed).webhooks_removed, 2)
        assert.strictEqual(yield* count, 0)

        yield* register
        const kept = yield* cli(["users", "rotate-key", "@fay_users", "--yes", "--keep-webhooks", "--json"])
        assert.strictEqual(kept.code, 0, kept.stderr)
        assert.strictEqual(json(kept).webhooks_removed, 0)
        assert.strictEqual(yield* count, 2)
      })
    )
  }
)
