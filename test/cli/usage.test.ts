import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { runResale } from "./support/CliHarness.ts"
import { runInProcess } from "./support/InProcessCli.ts"

// Nothing here may reach a database: a URL that cannot connect makes any attempt fail loudly.
const env = { DATABASE_URL: "postgres://nobody@127.0.0.1:9/none" }
/** The launcher as a real process: `npx resale` exactly (a Node start-up each, so only a handful). */
const resale = (...args: Array<string>) => runResale(args, env)
/** The same program entry in this process: for sweeps over every command. */
const inProcess = (...args: Array<string>) => Effect.promise(() => runInProcess(args, env))

const GROUPS = [
  "topups",
  "payments",
  "orders",
  "pricing",
  "tickets",
  "users",
  "payouts",
  "reconcile",
  "db",
  "sandbox",
  "bot"
]
const LEAVES = [
  ["topups", "list"],
  ["topups", "show"],
  ["topups", "receipt"],
  ["topups", "approve"],
  ["topups", "reject"],
  ["topups", "mark-paid"],
  ["payments", "list"],
  ["payments", "show"],
  ["payments", "assign"],
  ["orders", "list"],
  ["orders", "show"],
  ["orders", "retry"],
  ["orders", "mark-done"],
  ["pricing", "show"],
  ["pricing", "set"],
  ["tickets", "list"],
  ["tickets", "show"],
  ["tickets", "reply"],
  ["tickets", "close"],
  ["tickets", "reopen"],
  ["users", "list"],
  ["users", "show"],
  ["users", "adjust"],
  ["users", "rotate-key"],
  ["payouts", "list"],
  ["payouts", "show"],
  ["db", "migrate"],
  ["db", "status"],
  ["sandbox", "fund"],
  ["bot", "set-webhook"]
]
const DESTRUCTIVE = [
  ["topups", "approve"],
  ["topups", "reject"],
  ["topups", "mark-paid"],
  ["payments", "assign"],
  ["orders", "retry"],
  ["orders", "mark-done"],
  ["pricing", "set"],
  ["users", "adjust"],
  ["users", "rotate-key"]
]

describe("resale usage (the launcher as a real process, sweeps in process; no database)", () => {
  it.effect(
    "--help answers on every level with exit 0, and every leaf documents --json",
    () =>
      Effect.gen(function* () {
        const root = yield* resale("--help")
        assert.strictEqual(root.code, 0)
        for (const group of GROUPS) assert.match(root.stdout, new RegExp(`^\\s+${group}\\s`, "m"))
        assert.include(root.stdout, "Exit codes: 0 done, 1 failed")

        const runs = yield* Effect.forEach([...GROUPS.map((g) => [g]), ...LEAVES], (path) =>
          Effect.map(inProcess(...path, "--help"), (run) => ({ path, run }))
        )
        for (const { path, run } of runs) {
          assert.strictEqual(run.code, 0, `${path.join(" ")} --help: ${run.stderr}`)
          assert.include(run.stdout, `Usage: resale ${path.join(" ")}`)
          if (path.length === 2 || path[0] === "reconcile") assert.include(run.stdout, "--json", path.join(" "))
        }
        for (const { path, run } of runs) {
          const destructive = DESTRUCTIVE.some((d) => d.join(" ") === path.join(" "))
          if (path.length === 2) assert.strictEqual(run.stdout.includes("--yes"), destructive, path.join(" "))
        }
      }),
    240_000
  )

  it.effect(
    "usage errors exit 2 with a message on stderr; --version exits 0",
    () =>
      Effect.gen(function* () {
        const version = yield* resale("--version")
        assert.strictEqual(version.code, 0)
        assert.strictEqual(version.stdout.trim(), "0.1.0")

        const unknownCommand = yield* resale("topup", "list")
        assert.strictEqual(unknownCommand.code, 2)
        assert.include(unknownCommand.stderr, "unknown command 'topup'")
        assert.include(unknownCommand.stderr, "Did you mean topups?")

        const unknownOption = yield* inProcess("orders", "list", "--colour")
        assert.strictEqual(unknownOption.code, 2)
        assert.include(unknownOption.stderr, "unknown option '--colour'")

        const groupOnly = yield* inProcess("tickets")
        assert.strictEqual(groupOnly.code, 2)
        assert.include(groupOnly.stderr, "Usage: resale tickets")

        const missingId = yield* resale("orders", "show")
        assert.strictEqual(missingId.code, 2)
        assert.include(missingId.stderr, "missing required argument 'id'")

        const negativeId = yield* inProcess("tickets", "close", "-3")
        assert.strictEqual(negativeId.code, 2)

        const extra = yield* inProcess("pricing", "show", "now")
        assert.strictEqual(extra.code, 2)
        assert.include(extra.stderr, "too many arguments")
      }),
    120_000
  )
})
