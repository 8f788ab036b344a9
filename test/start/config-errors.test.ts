/**
 * Starting the real entries (`npm start`, `npm run worker`, `resale`) with a bad configuration: the
 * process ends with one report listing every problem, one line each, and no stack trace; production
 * refuses to start without its secrets.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { execFile } from "node:child_process"
import { NODE, ROOT } from "../support/ServerEntry.ts"
import { bundledEntry } from "../worker/support/BundledEntry.ts"

// Settings a developer's shell may carry that would change the outcome.
const clean = (extra: Record<string, string>): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) if (/^(PATH|HOME|LANG|TMPDIR)$/.test(name)) env[name] = value
  return { ...env, DATA_DIR: "/nonexistent/resale-config-test", ...extra }
}

// The start bundle of the entry's sources, as `npm start` and `npm run worker` run it.
const run = (entry: "server" | "worker", env: Record<string, string>) =>
  Effect.flatMap(bundledEntry(entry), (main) =>
    Effect.promise(
      () =>
        new Promise<{ readonly code: number | null; readonly stdout: string; readonly stderr: string }>((resolve) => {
          execFile(NODE, [main], { cwd: ROOT, env: clean(env), timeout: 60_000 }, (error, stdout, stderr) =>
            resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : null, stdout, stderr })
          )
        })
    )
  )

const SERVER = "server"
const WORKER = "worker"

const reportLines = (stderr: string) => stderr.trim().split("\n")

describe("configuration problems at start", () => {
  it.live(
    "npm start lists every bad setting at once, one line each, and exits 1 without a stack",
    () =>
      Effect.gen(function* () {
        const { code, stderr, stdout } = yield* run(SERVER, {
          SANDBOX: "true",
          PORT: "eighty",
          DATABASE_URL: "localhost:5432/resale",
          ORDER_LEASE: "a minute",
          WORKER_CONCURRENCY: "-1",
          GIFT_SENDERS: "user, the girl"
        })
        assert.strictEqual(code, 1, stderr)
        assert.deepStrictEqual(reportLines(stderr), [
          "resale cannot start: the configuration has 5 problems (sandbox mode: SANDBOX=true):",
          `  PORT: expected a port number from 0 to 65535, got "eighty"`,
          "  DATABASE_URL: expected a URL like postgres://user:password@host:5432/database",
          `  GIFT_SENDERS: expected comma-separated names of letters, digits and _, got "user, the girl"`,
          `  WORKER_CONCURRENCY: expected a whole number of at least 1, got "-1"`,
          `  ORDER_LEASE: expected a duration such as "5 seconds" or "1500 millis", got "a minute"`
        ])
        // At most the lifecycle line of the logger ("server stopped: ConfigProblems"), never a stack.
        assert.notInclude(`${stdout}${stderr}`, "    at ")
      }),
    90_000
  )

  it.live(
    "production refuses to start without TELEGRAM_BOT_TOKEN and SESSION_SECRET or with a weak ADMIN_TOKEN",
    () =>
      Effect.gen(function* () {
        const { code, stderr } = yield* run(SERVER, {
          SANDBOX: "false",
          WORKER: "false",
          ADMIN_TOKEN: "only-twenty-chars-xx",
          FRAGMENT_COOKIES: "stel_ssid=a; stel_dt=-1; stel_token=b; stel_ton_token=c"
        })
        assert.strictEqual(code, 1, stderr)
        assert.deepStrictEqual(reportLines(stderr), [
          "resale cannot start: the configuration has 3 problems (production mode: SANDBOX=false):",
          "  TELEGRAM_BOT_TOKEN: required outside sandbox mode (the bot's token from @BotFather)",
          "  SESSION_SECRET: required outside sandbox mode (at least 32 random characters)",
          "  ADMIN_TOKEN: too weak: at least 24 characters are required outside sandbox mode"
        ])
        assert.notInclude(stderr, "only-twenty-chars-xx")
      }),
    90_000
  )

  it.live(
    "sandbox mode refuses a real chain or a real Fragment: npm start and npm run worker name the setting, not its value",
    () =>
      Effect.gen(function* () {
        const cookies = "stel_ssid=s3cr3t-ssid; stel_dt=-1; stel_token=s3cr3t-token; stel_ton_token=s3cr3t-ton"
        const [chain, fragment] = yield* Effect.all(
          [
            run(SERVER, { SANDBOX: "true", TONCENTER_URL: "https://toncenter.com/api/v2/jsonRPC" }),
            run(WORKER, { SANDBOX: "true", DATABASE_URL: "postgres://u@127.0.0.1/db", FRAGMENT_COOKIES: cookies })
          ],
          { concurrency: 2 }
        )
        const refusal = (names: string) =>
          `  ${names}: refused in sandbox mode (sandbox sign-in, faucet and the public hot wallet phrase would face ` +
          `a real chain or Fragment): set SANDBOX=false with production's secrets, or unset ${names} to use the sandbox world`
        assert.strictEqual(chain.code, 1, chain.stderr)
        assert.deepStrictEqual(reportLines(chain.stderr), [
          "resale cannot start: the configuration has 1 problem (sandbox mode: SANDBOX=true):",
          refusal("TONCENTER_URL")
        ])
        assert.strictEqual(fragment.code, 1, fragment.stderr)
        assert.deepStrictEqual(reportLines(fragment.stderr), [
          "resale cannot start: the configuration has 1 problem (sandbox mode: SANDBOX=true):",
          refusal("FRAGMENT_COOKIES")
        ])
        // Neither started anything sandbox-shaped, and no cookie value reached the output.
        for (const { stderr, stdout } of [chain, fragment]) {
          assert.notInclude(`${stdout}${stderr}`, "s3cr3t")
          assert.notInclude(`${stdout}${stderr}`, "SANDBOX MODE")
        }
      }),
    90_000
  )

  it.live(
    "npm run worker outside sandbox names its missing database, hot wallet and Fragment session",
    () =>
      Effect.gen(function* () {
        const { code, stderr } = yield* run(WORKER, { SANDBOX: "false" })
        assert.strictEqual(code, 1, stderr)
        assert.deepStrictEqual(reportLines(stderr), [
          "resale cannot start: the configuration has 3 problems (production mode: SANDBOX=false):",
          "  HOT_WALLET_MNEMONIC: required outside sandbox mode (the 24 words of the wallet that pays Fragment)",
          "  DATABASE_URL: required for `npm run worker` (the PostgreSQL the server uses)",
          "  FRAGMENT_COOKIES: required outside sandbox mode (a signed-in Fragment session)"
        ])
      }),
    90_000
  )
})
