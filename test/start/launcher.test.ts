/**
 * The launcher of `npm start`, `npm run worker` and `resale` (`deploy/start.mjs`) runs an entry's bundle
 * only while every file the bundle was made of is unchanged: a changed source makes it stale, and a
 * stale bundle that cannot be rebuilt (here: esbuild's binary replaced by one that fails) is never
 * run, the sources are.
 * Builds once (esbuild, some seconds) when the checkout has no fresh bundle.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { execFile } from "node:child_process"
import { mkdtempSync, rmSync, statSync, utimesSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { build, freshBuild } from "../../deploy/bundle.mjs"
import { createDatabase, databaseUrl, dropDatabase, uniqueName } from "@resale/store/testing/TestDatabase.ts"
import { NODE, ROOT } from "../support/ServerEntry.ts"

const VERSION = /^\d+\.\d+\.\d+\n$/

const launch = (args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
  Effect.promise(
    () =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile(
          NODE,
          ["deploy/start.mjs", ...args],
          { cwd: ROOT, env: { PATH: process.env["PATH"] ?? "", ...env }, timeout: 120_000 },
          (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr })
        )
      })
  )

/** Makes `file` look changed (a later modification time) while `body` runs, then puts its time back. */
const touched = <A>(file: string, body: Effect.Effect<A>) =>
  Effect.acquireUseRelease(
    Effect.sync(() => {
      const { atime, mtime } = statSync(file)
      utimesSync(file, atime, new Date(mtime.getTime() + 1000))
      return { atime, mtime }
    }),
    () => body,
    ({ atime, mtime }) => Effect.sync(() => utimesSync(file, atime, mtime))
  )

describe("deploy/start.mjs", () => {
  it.effect(
    "runs the fresh bundle; a changed source makes it stale, and a stale bundle that cannot be rebuilt is not run",
    () =>
      Effect.gen(function* () {
        if (freshBuild() === undefined) yield* Effect.promise(() => build())
        const dir = freshBuild()
        assert.isDefined(dir)

        const bundled = yield* launch(["cli", "--version"])
        assert.strictEqual(bundled.code, 0, bundled.stderr)
        assert.match(bundled.stdout, VERSION)
        assert.strictEqual(bundled.stderr, "")

        const source = join(ROOT, "packages/cli/src/Program.ts")
        yield* touched(
          source,
          Effect.gen(function* () {
            assert.isUndefined(freshBuild(), "a changed source makes the bundle stale")
            const fallback = yield* launch(["cli", "--version"], { ESBUILD_BINARY_PATH: "/bin/false" })
            assert.strictEqual(fallback.code, 0, fallback.stderr)
            assert.match(fallback.stdout, VERSION)
            assert.include(fallback.stderr, "running the sources")
          })
        )
        assert.strictEqual(freshBuild(), dir, "the same files again: the same bundle")

        // Bundled code that finds files beside its original module: the TON emulator of the sandbox world.
        const name = uniqueName("launcher")
        yield* createDatabase(name)
        const dataDir = mkdtempSync(join(tmpdir(), "resale-launcher-"))
        yield* Effect.gen(function* () {
          const address = "EQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAM9c"
          const funded = yield* launch(["cli", "sandbox", "fund", address, "2", "--json"], {
            DATA_DIR: dataDir,
            DATABASE_URL: databaseUrl(name)
          })
          assert.strictEqual(funded.code, 0, funded.stderr)
          assert.deepInclude(JSON.parse(funded.stdout), { address, funded: "2", network: "sandbox" })
        }).pipe(
          Effect.ensuring(Effect.sync(() => rmSync(dataDir, { recursive: true, force: true }))),
          Effect.ensuring(Effect.orDie(dropDatabase(name)))
        )
      }),
    { timeout: 300_000 }
  )

  it.effect(
    "leaves no esbuild process behind once it has used esbuild (a server that rebuilt its bundle kept one)",
    () =>
      Effect.gen(function* () {
        // A process of its own, so that no other test's esbuild is counted: its live children during and after.
        const script = `
        import { withEsbuild } from ${JSON.stringify(join(ROOT, "deploy/bundle.mjs"))}
        import { readdirSync, readFileSync } from "node:fs"
        const children = () => readdirSync("/proc").filter((entry) => {
          try {
            const [state, parent] = readFileSync("/proc/" + entry + "/stat", "utf8").split(") ")[1].split(" ")
            return parent === String(process.pid) && state !== "Z"
          } catch { return false }
        }).length
        let during = 0
        await withEsbuild(async (esbuild) => { await esbuild.transform("let x = 1"); during = children() })
        await new Promise((resolve) => setTimeout(resolve, 300))
        console.log(JSON.stringify({ during, after: children() }))`
        const { stdout } = yield* Effect.promise(
          () =>
            new Promise<{ stdout: string }>((resolve, reject) =>
              execFile(NODE, ["--input-type=module", "-e", script], { cwd: ROOT, timeout: 60_000 }, (error, stdout) =>
                error ? reject(error) : resolve({ stdout })
              )
            )
        )
        assert.deepStrictEqual(JSON.parse(stdout), { during: 1, after: 0 })
      })
  )

  it.effect("names its entries", () =>
    Effect.gen(function* () {
      const wrong = yield* launch(["nonsense"])
      assert.strictEqual(wrong.code, 2)
      assert.include(wrong.stderr, "usage: node deploy/start.mjs server|worker|cli")
    })
  )
})
