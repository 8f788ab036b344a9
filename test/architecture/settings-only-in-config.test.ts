/**
 * Every setting is read once, in `packages/config`: no other product file reads `process.env` or
 * effect's `Config` / `ConfigProvider`. Tests, the test harnesses under `src/testing/` and benches may
 * set or read variables for the processes they start; they are not the product.
 */
import { assert, describe, it } from "@effect/vitest"
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"

const repo = fileURLToPath(new URL("../../", import.meta.url))

/** Files that may read the environment, each with why. */
const ALLOWED: Record<string, string> = {
  // The launcher picks the code to run (sources or bundle) before any of it, config included, is loaded;
  // RESALE_RUN_SOURCES is in the catalogue with the others.
  "deploy/start.mjs": "chooses what to start"
}

const SOURCE = /\.(ts|mts|js|mjs|cjs)$/
const EXCLUDED = /(\.test\.ts$|\/testing\/|\/node_modules\/)/

const filesUnder = (dir: string): ReadonlyArray<string> => {
  let names: ReadonlyArray<string>
  try {
    names = readdirSync(dir)
  } catch {
    // a package without this folder
    return []
  }
  return names.flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : SOURCE.test(name) ? [path] : []
  })
}

/** Every product file outside packages/config: packages' src, bin and scripts, and deploy/. */
const productFiles = (): ReadonlyArray<string> => {
  const packages = readdirSync(join(repo, "packages")).filter((name) => name !== "config")
  return [
    ...packages.flatMap((name) =>
      ["src", "bin", "scripts"].flatMap((folder) => filesUnder(join(repo, "packages", name, folder)))
    ),
    ...filesUnder(join(repo, "deploy"))
  ]
    .map((path) => relative(repo, path).split("\\").join("/"))
    .filter((path) => !EXCLUDED.test(path))
}

/** What in `source` reads settings on its own: `process.env`, or effect's Config / ConfigProvider. */
const settingReads = (source: string): ReadonlyArray<string> => {
  const found: Array<string> = []
  if (/\bprocess\.env\b/.test(source)) found.push("process.env")
  for (const match of source.matchAll(/import\s*(type\s*)?\{([^}]*)\}\s*from\s*"effect"/g)) {
    if (match[1] !== undefined) continue
    for (const name of (match[2] ?? "").split(",").map((n) => n.trim())) {
      if (/^(Config|ConfigProvider)$/.test(name)) found.push(`${name} from "effect"`)
    }
  }
  if (/from\s*"effect\/(Config|ConfigProvider)"/.test(source)) found.push("effect/Config")
  return found
}

describe("settings are read only in packages/config", () => {
  it("the check sees each way of reading", () => {
    assert.deepStrictEqual(settingReads('const port = process.env["PORT"]'), ["process.env"])
    assert.deepStrictEqual(settingReads('import { Config, Effect } from "effect"'), ['Config from "effect"'])
    assert.deepStrictEqual(settingReads('import {\n  ConfigProvider,\n  Layer\n} from "effect"'), [
      'ConfigProvider from "effect"'
    ])
    assert.deepStrictEqual(settingReads('import * as C from "effect/Config"'), ["effect/Config"])
    assert.deepStrictEqual(settingReads('import { Effect, Layer } from "effect"'), [])
  })

  it("no product file outside packages/config reads process.env or effect's Config", () => {
    const files = productFiles()
    assert.isAbove(files.length, 100)
    const offenders = files.flatMap((path) => {
      if (path in ALLOWED) return []
      const reads = settingReads(readFileSync(join(repo, path), "utf8"))
      return reads.length === 0 ? [] : [`${path}: ${reads.join(", ")}`]
    })
    assert.deepStrictEqual(
      offenders,
      [],
      "declare the setting in a group of packages/config/src/catalogue/ and pass it down"
    )
  })
})
