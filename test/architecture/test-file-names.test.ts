/**
 * One naming scheme for test files: kebab-case (`pg-orders.test.ts`), in a package's `test/` folder
 * (tests of a package's code live in that package) or in the root `test/` for what spans packages.
 * Nothing beside the sources: `src/` holds the product only.
 */
import { assert, describe, it } from "@effect/vitest"
import { readdirSync, statSync } from "node:fs"
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"

const repo = fileURLToPath(new URL("../../", import.meta.url))

const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*\.test\.ts$/

const testFilesUnder = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir).flatMap((name) => {
    if (name === "node_modules" || name.startsWith(".")) return []
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return testFilesUnder(path)
    return name.endsWith(".test.ts") ? [relative(repo, path)] : []
  })

const allTestFiles = () => [...testFilesUnder(join(repo, "packages")), ...testFilesUnder(join(repo, "test"))]

/** The files that break the scheme, each with its reason. */
const misnamed = (files: ReadonlyArray<string>): ReadonlyArray<string> =>
  files.flatMap((file) => {
    const name = file.split("/").at(-1) ?? file
    const reasons = [
      ...(KEBAB.test(name) ? [] : ["not kebab-case"]),
      ...(/^packages\/[^/]+\/src\//.test(file) ? ["beside the sources, not in test/"] : [])
    ]
    return reasons.length === 0 ? [] : [`${file}: ${reasons.join(", ")}`]
  })

describe("test file names", () => {
  it("every test file is kebab-case and in a test/ folder", () => {
    const files = allTestFiles()
    assert.isAbove(files.length, 200)
    assert.deepStrictEqual(misnamed(files), [])
  })

  it("a planted PascalCase name or a test beside the sources is reported", () => {
    assert.deepStrictEqual(misnamed(["packages/store/test/PgOrders.test.ts", "packages/web/src/html.test.ts"]), [
      "packages/store/test/PgOrders.test.ts: not kebab-case",
      "packages/web/src/html.test.ts: beside the sources, not in test/"
    ])
    assert.deepStrictEqual(misnamed(["packages/store/test/pg-orders.test.ts", "test/web/pages.test.ts"]), [])
  })
})
