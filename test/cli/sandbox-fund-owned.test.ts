/**
 * `resale sandbox fund` never funds a private copy of a chain another process owns: when the sandbox
 * world of DATA_DIR is served by a live process whose HTTP server does not answer, it refuses in words
 * (before, a slow health answer sent it to the state file, which the owner then overwrote).
 */
import { assert, describe, it } from "@effect/vitest"
import { worldSocketOf } from "@resale/world/SharedSandbox.ts"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { runInProcess } from "./support/InProcessCli.ts"

const ADDRESS = "UQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAJKZ"

describe("sandbox fund beside a world owner", () => {
  it("refuses while a live process owns DATA_DIR's chain and no server answers", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "resale-fund-owned-"))
    const owner = createServer((socket) => {
      socket.on("error", () => undefined) // the CLI hangs up at once
      socket.end("{}")
    })
    await new Promise<void>((resolve) => owner.listen(worldSocketOf(dataDir), resolve))
    try {
      // PORT 9: nothing answers there, as a server too busy to answer its health check in time.
      const run = await runInProcess(["sandbox", "fund", ADDRESS, "1"], {
        DATA_DIR: dataDir,
        SANDBOX: "true",
        PORT: "9"
      })
      assert.notStrictEqual(run.code, 0, run.stdout)
      assert.include(run.stderr, "owns DATA_DIR's sandbox chain")
    } finally {
      await new Promise((resolve) => owner.close(resolve))
      rmSync(dataDir, { recursive: true, force: true })
    }
  }, 60_000)
})
