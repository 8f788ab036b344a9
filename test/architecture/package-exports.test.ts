/**
 * Each package's `exports` name what other packages (and the tests and benches) import at run time, and
 * nothing more: an entry nobody imports fails here, and so does an entry whose file is gone. The `./*`
 * pattern is for types only (the declaration files tsc emits may name any module's types); at run time
 * it is `null`, so Node and the bundler refuse any other deep import.
 */
import { assert, describe, it } from "@effect/vitest"
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"

const repo = fileURLToPath(new URL("../../", import.meta.url))
const SOURCE = /\.(ts|mts|js|mjs|cjs)$/
// The dependency rules' test builds a tree of its own with made-up imports.
const SKIPPED = new Set(["test/architecture/depcheck-rules.test.ts"])

const filesUnder = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir).flatMap((name) => {
    if (name === "node_modules" || name === "generated" || name.startsWith(".")) return []
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : SOURCE.test(name) ? [path] : []
  })

/** Every `@resale/<package><subpath>` imported from outside that package's own sources. */
const imported = (): ReadonlySet<string> => {
  const found = new Set<string>()
  for (const root of ["packages", "test", "bench", "deploy"]) {
    for (const path of filesUnder(join(repo, root))) {
      const file = relative(repo, path).split("\\").join("/")
      if (SKIPPED.has(file)) continue
      const text = readFileSync(path, "utf8")
      for (const match of text.matchAll(/(?:from|import\(|import)\s*["']@resale\/([a-z]+)(\/[^"'\s]*)?["']/g)) {
        const name = match[1] ?? ""
        if (!file.startsWith(`packages/${name}/src/`)) found.add(`${name}${match[2] ?? ""}`)
      }
    }
  }
  return found
}

const packages = readdirSync(join(repo, "packages")).filter((name) =>
  existsSync(join(repo, "packages", name, "package.json"))
)

describe("package exports", () => {
  const used = imported()

  it("every exported entry is imported by another package, a test or a bench, and its file exists", () => {
    const unused: Array<string> = []
    const missing: Array<string> = []
    for (const name of packages) {
      const manifest = JSON.parse(readFileSync(join(repo, "packages", name, "package.json"), "utf8"))
      for (const [entry, target] of Object.entries(manifest.exports as Record<string, unknown>)) {
        if (entry === "./*") {
          assert.deepStrictEqual(target, { types: "./src/*", default: null }, `${name}: ./* is for types only`)
          continue
        }
        const key = entry === "." ? name : `${name}${entry.slice(1)}`
        if (!used.has(key)) unused.push(`@resale/${key}`)
        if (typeof target !== "string" || !existsSync(join(repo, "packages", name, target))) missing.push(key)
      }
    }
    assert.deepStrictEqual(unused, [], "drop these entries from the package's exports")
    assert.deepStrictEqual(missing, [])
  })

  it("every import of another package names one of its entries", () => {
    const entries = new Set(
      packages.flatMap((name) => {
        const manifest = JSON.parse(readFileSync(join(repo, "packages", name, "package.json"), "utf8"))
        return Object.keys(manifest.exports as Record<string, unknown>).map((entry) =>
          entry === "." ? name : `${name}${entry.slice(1)}`
        )
      })
    )
    const unexported = [...used].filter((key) => !entries.has(key)).map((key) => `@resale/${key}`)
    assert.deepStrictEqual(unexported, [], "add these entries to the package's exports")
  })
})
