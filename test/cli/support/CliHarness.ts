import { Accounts } from "@resale/core/accounts/Accounts.ts"
import type { User } from "@resale/core/accounts/User.ts"
import { CoreServices } from "@resale/core/CoreServices.ts"
import type { UserId } from "@resale/core/ids.ts"
import { Balances } from "@resale/core/ledger/Balances.ts"
import { TopupService } from "@resale/core/topups/TopupService.ts"
import { PgConnection } from "@resale/store/PgConnection.ts"
import { PgStore } from "@resale/store/PgStore.ts"
import { IsolatedPostgres } from "@resale/store/testing/IsolatedPostgres.ts"
import { Context, Effect, Layer } from "effect"
import { spawn } from "node:child_process"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { type CliRun, runInProcess } from "./InProcessCli.ts"

/** The launcher under test, exactly what `npx resale` starts. */
export const RESALE_BIN = fileURLToPath(new URL("../../../packages/cli/bin/resale.js", import.meta.url))

/** The database of one test file: its URL (handed to the CLI child) and a connection for seeding. */
export class CliDatabase extends Context.Service<CliDatabase, { readonly url: string; readonly dataDir: string }>()(
  "test/cli/CliDatabase"
) {}

/**
 * A fresh, migrated PostgreSQL database per test file (dropped afterwards), its URL, and the core
 * services over it in this process, so a test seeds data the way the server would and then drives
 * the CLI as a separate process against the same database.
 */
export const CliTestLayer = Layer.unwrap(
  Effect.gen(function* () {
    const url = yield* IsolatedPostgres.database
    const dataDir = yield* Effect.acquireRelease(
      Effect.sync(() => mkdtempSync(join(tmpdir(), "resale-cli-"))),
      (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
    )
    const connection = PgConnection.layerFromUrl(url, 5)
    return Layer.mergeAll(
      Layer.succeed(CliDatabase)({ url, dataDir }),
      CoreServices.pipe(Layer.provideMerge(PgStore.layer), Layer.provideMerge(connection))
    )
  })
).pipe(Layer.orDie)

export type { CliRun }

export interface CliOptions {
  /** Extra environment (e.g. to unset DATABASE_URL); DATABASE_URL and DATA_DIR point at this file's database. */
  readonly env?: Record<string, string | undefined>
  /** Text written to the child's stdin (a pipe, never a terminal). */
  readonly input?: string
}

/**
 * Runs `resale <args>` in this process (see `InProcessCli.ts`) with the test file's database.
 * stdin is never a terminal, as for a child with a pipe, so `input` is never read: a confirmation
 * without `--yes` is refused. `cliProcess` starts the real launcher instead.
 */
export const cli = (args: ReadonlyArray<string>, options: CliOptions = {}) =>
  Effect.gen(function* () {
    const db = yield* CliDatabase
    return yield* Effect.promise(() =>
      runInProcess(args, { DATABASE_URL: db.url, DATA_DIR: db.dataDir, ...options.env })
    )
  })

/** Runs `resale <args>` as a child process (the launcher) with the test file's database; resolves when it exits. */
export const cliProcess = (args: ReadonlyArray<string>, options: CliOptions = {}) =>
  Effect.gen(function* () {
    const db = yield* CliDatabase
    return yield* runResale(args, { DATABASE_URL: db.url, DATA_DIR: db.dataDir, ...options.env }, options.input)
  })

/** The launcher runs the sources (RESALE_RUN_SOURCES): tests must not build or run a bundle of other sources. */
export const runResale = (args: ReadonlyArray<string>, env: Record<string, string | undefined>, input?: string) =>
  runProcess(process.execPath, [RESALE_BIN, ...args], { RESALE_RUN_SOURCES: "true", ...env }, input)

const runProcess = (
  file: string,
  args: ReadonlyArray<string>,
  env: Record<string, string | undefined>,
  input?: string
) =>
  Effect.promise(
    () =>
      new Promise<CliRun>((resolve, reject) => {
        const merged: Record<string, string> = {}
        for (const [k, v] of Object.entries({ ...process.env, ...env })) if (v !== undefined) merged[k] = v
        const child = spawn(file, args, { env: merged, stdio: ["pipe", "pipe", "pipe"] })
        let stdout = ""
        let stderr = ""
        child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
        child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
        child.on("error", reject)
        child.on("close", (code) => resolve({ code, stdout, stderr }))
        child.stdin.end(input ?? "")
      })
  )

/** Where util-linux `script` lives, when it does: it gives the CLI a real terminal (a pty) for prompts. */
export const SCRIPT_BIN = ["/usr/bin/script", "/bin/script"].find((path) => existsSync(path))

/**
 * Runs `resale <args>` on a pseudo-terminal (through `script`), typing `input`; stdout carries the
 * terminal's transcript (prompt and output), and the exit code is the CLI's.
 */
export const cliOnTerminal = (args: ReadonlyArray<string>, input: string) =>
  Effect.gen(function* () {
    const db = yield* CliDatabase
    if (SCRIPT_BIN === undefined) return yield* Effect.die("util-linux script is not installed")
    const quote = (word: string) => `'${word.replaceAll("'", "'\\''")}'`
    const command = [process.execPath, RESALE_BIN, ...args].map(quote).join(" ")
    return yield* runProcess(
      SCRIPT_BIN,
      ["-qec", command, "/dev/null"],
      { RESALE_RUN_SOURCES: "true", DATABASE_URL: db.url, DATA_DIR: db.dataDir },
      input
    )
  })

/** The `--json` output of a run, parsed (fails the test with the run's stderr when it is not JSON). */
export const json = <A = any>(run: CliRun): A => {
  try {
    return JSON.parse(run.stdout) as A
  } catch {
    throw new Error(`not JSON (exit ${run.code}):\nstdout: ${run.stdout}\nstderr: ${run.stderr}`)
  }
}

let nextTelegramId = 7_000_000_000 + Math.floor(Math.random() * 1_000_000) * 100

/** A signed-in user, as the Telegram login would create one. */
export const seedUser = (username: string): Effect.Effect<User, never, Accounts> =>
  Accounts.use((accounts) =>
    accounts.signIn({ telegramId: ++nextTelegramId, username, firstName: username, photoUrl: null })
  )

/** A credit by an operator adjustment, so a user can pay for orders. */
export const fund = (userId: UserId, amount: number) =>
  Balances.use((balances) =>
    balances.adjust({ userId, amount, reason: "test funds", key: `seed:${userId}:${amount}:${Math.random()}` })
  ).pipe(Effect.orDie)

/** The first bytes of a PNG: what the receipt check recognises as an image. */
export const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82])

let photos = 0

/**
 * A receipt top-up awaiting review, as the upload endpoint creates one; each with a file of its own
 * unless `bytes` is given (the same file twice is held as a possible duplicate).
 */
export const receiptTopup = (userId: UserId, amount: number, bytes?: Uint8Array) =>
  TopupService.use((topups) =>
    topups.createWithReceipt(userId, amount, bytes ?? new Uint8Array([...PNG, ++photos & 0xff, photos >> 8]))
  ).pipe(Effect.orDie)

/** A card top-up waiting for its payment. */
export const cardTopup = (userId: UserId, amount: number) =>
  TopupService.use((topups) => topups.create(userId, amount)).pipe(Effect.orDie)
