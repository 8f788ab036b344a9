/**
 * The Node and V8 flags the start commands pass (package.json's scripts and the systemd units'
 * `ExecStart`) are accepted by the pinned Node. V8 flags such as `--heap-growing-percent` and
 * `--no-memory-reducer` are V8's, not Node's documented options, and Node refuses to start with one
 * it does not know: a Node upgrade that drops one fails here, not at the service's start.
 */
import { assert, describe, it } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { NODE, ROOT } from "../support/ServerEntry.ts"

/** The flags before the script of each `node --flag ... script` command, by where it was found. */
const commands = (): Array<{ readonly where: string; readonly flags: Array<string> }> => {
  const found: Array<{ where: string; flags: Array<string> }> = []
  const scripts = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> })
    .scripts
  for (const [name, command] of Object.entries(scripts)) {
    const flags = /^node\s+((?:--\S+\s+)+)/.exec(command)?.[1]
    if (flags !== undefined) found.push({ where: `package.json ${name}`, flags: flags.trim().split(/\s+/) })
  }
  const units = join(ROOT, "deploy", "systemd")
  for (const unit of readdirSync(units).filter((name) => name.endsWith(".service"))) {
    for (const line of readFileSync(join(units, unit), "utf8").split("\n")) {
      const flags = /^ExecStart=\S+\/node\s+((?:--\S+\s+)+)/.exec(line)?.[1]
      if (flags !== undefined) found.push({ where: unit, flags: flags.trim().split(/\s+/) })
    }
  }
  return found
}

const run = (flags: ReadonlyArray<string>) => spawnSync(NODE, [...flags, "-e", "0"], { encoding: "utf8" })

describe("the start commands' Node flags", () => {
  it("every one is accepted by the pinned Node", () => {
    const found = commands()
    const where = found.map((command) => command.where)
    assert.includeMembers(where, [
      "package.json start",
      "package.json worker",
      "resale.service",
      "resale-worker.service"
    ])
    for (const { flags, where } of found) {
      const started = run(flags)
      assert.strictEqual(started.status, 0, `${where}: ${flags.join(" ")}: ${started.stderr}`)
    }
    assert.include(found.find((command) => command.where === "resale.service")!.flags, "--heap-growing-percent=100")
  })

  it("a flag the pinned Node does not know stops it (what the check above relies on)", () => {
    const refused = run(["--heap-growing-percents=100"])
    assert.notStrictEqual(refused.status, 0)
    assert.include(refused.stderr, "bad option")
  })
})
