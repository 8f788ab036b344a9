/**
 * The systemd units of `deploy/systemd/` (docs/deploy.md) pass `systemd-analyze verify` with no warning:
 * copied to a temporary directory with `/opt/resale` pointed at this checkout, so the commands they
 * start exist. Skipped, saying why, where systemd-analyze is not installed.
 */
import { assert, describe, it } from "@effect/vitest"
import { execFileSync, spawnSync } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { ROOT } from "../support/ServerEntry.ts"

const UNITS = join(ROOT, "deploy", "systemd")

const analyzer = (() => {
  try {
    execFileSync("systemd-analyze", ["--version"], { stdio: "ignore" })
    return true
  } catch {
    return false
  }
})()

describe.skipIf(!analyzer)("systemd units (skipped when systemd-analyze is not installed)", () => {
  it("server, worker and nightly backup units verify cleanly", () => {
    const dir = mkdtempSync(join(tmpdir(), "resale-units-"))
    try {
      const files = readdirSync(UNITS).filter((name) => /\.(service|timer)$/.test(name))
      assert.includeMembers(files, [
        "resale.service",
        "resale-worker.service",
        "resale-backup.service",
        "resale-backup.timer"
      ])
      for (const name of files) {
        const text = readFileSync(join(UNITS, name), "utf8").replaceAll("/opt/resale/", ROOT)
        writeFileSync(join(dir, name), text)
      }
      const run = spawnSync("systemd-analyze", ["verify", "--man=no", ...files.map((name) => join(dir, name))], {
        encoding: "utf8"
      })
      assert.strictEqual(run.status, 0, run.stderr)
      assert.strictEqual(run.stderr.trim(), "", "no warning")
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
