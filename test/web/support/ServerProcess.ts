/**
 * The server as `npm start` runs it: its own Node process on `packages/http/src/main.ts`, configured
 * from the environment, over a fresh database on the test PostgreSQL server.
 */
import { createDatabase, databaseUrl, dropDatabase, uniqueName } from "@resale/store/testing/TestDatabase.ts"
import { Effect } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { entryProcess, freePort } from "../../support/ServerEntry.ts"

/** A started server process (stopped with the scope) and its base URL. */
export const serverProcess = (env: Record<string, string>) =>
  Effect.gen(function* () {
    const name = uniqueName("resale_t")
    yield* Effect.acquireRelease(createDatabase(name), () => dropDatabase(name).pipe(Effect.orDie)).pipe(Effect.orDie)
    const port = yield* Effect.promise(freePort)
    const dataDir = yield* Effect.acquireRelease(
      Effect.sync(() => mkdtempSync(join(tmpdir(), "resale-web-proc-"))),
      (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
    )
    const base = `http://127.0.0.1:${port}`
    yield* entryProcess(
      {
        ...process.env,
        PORT: String(port),
        DATABASE_URL: databaseUrl(name),
        DATA_DIR: dataDir,
        PUBLIC_URL: base,
        ...env
      },
      port
    )
    return base
  })
