/**
 * `npm run depcheck` refuses what the architecture forbids: the repository's own rule file run by
 * dependency-cruiser over a small tree laid out like the repository, with a few bad imports in it.
 * A root taking a port (its file or `@resale/core/ports`) outside a wiring file, the core's index
 * passing a port on, `http` importing `worker` outside its entry, `web` and `http` importing each other
 * (outside the start entry) and `webkit` importing a root all fail; a root calling a use
 * case through `@resale/core`, a type-only record import and a wiring file's ports pass.
 */
import { assert, describe, it } from "@effect/vitest"
import { execFile } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const repo = fileURLToPath(new URL("../../", import.meta.url))

const files: Record<string, string> = {
  "tsconfig.single.json": JSON.stringify({
    compilerOptions: {
      module: "nodenext",
      moduleResolution: "nodenext",
      allowImportingTsExtensions: true,
      noEmit: true
    },
    include: ["packages/*/src/**/*.ts"]
  }),
  "packages/core/package.json": JSON.stringify({
    name: "@resale/core",
    type: "module",
    exports: { ".": "./src/index.ts", "./ports": "./src/ports/index.ts", "./*": "./src/*" }
  }),
  "packages/core/src/ports/Ledger.ts": "export class Ledger {}\nexport interface LedgerEntry { readonly id: number }\n",
  "packages/core/src/ports/index.ts": 'export * from "./Ledger.ts"\n',
  "packages/core/src/ledger/Balances.ts":
    'import { Ledger } from "../ports/Ledger.ts"\nexport class Balances { ledger = Ledger }\n',
  // bad: the index passes a port on
  "packages/core/src/index.ts": 'export * from "./ledger/Balances.ts"\nexport * from "./ports/Ledger.ts"\n',
  // bad: a use-case module re-exports a port
  "packages/core/src/ledger/Leak.ts": 'export { Ledger } from "../ports/Ledger.ts"\n',
  // good: a handler calls a use case and names a record's type
  "packages/http/src/handlers/Good.ts":
    'import { Balances } from "@resale/core"\nimport type { LedgerEntry } from "@resale/core/ports/Ledger.ts"\nexport const h = (e: LedgerEntry) => [Balances, e]\n',
  // bad: a handler takes a port through the ports index
  "packages/http/src/handlers/TakesPort.ts": 'import { Ledger } from "@resale/core/ports"\nexport const h = Ledger\n',
  // bad: a worker job takes a port by its file
  "packages/worker/src/jobs/TakesPort.ts":
    'import { Ledger } from "@resale/core/ports/Ledger.ts"\nexport const j = Ledger\n',
  // good: wiring files provide the ports
  "packages/http/src/main.ts":
    'import { Ledger } from "@resale/core/ports"\nimport "@resale/worker/jobs/TakesPort.ts"\nexport const m = Ledger\n',
  "packages/worker/src/LedgerLive.ts":
    'import { Ledger } from "@resale/core/ports/Ledger.ts"\nexport const l = Ledger\n',
  "packages/worker/package.json": JSON.stringify({
    name: "@resale/worker",
    type: "module",
    exports: { "./*": "./src/*" }
  }),
  // bad: http imports the worker outside its entry
  "packages/http/src/handlers/UsesWorker.ts":
    'import { j } from "@resale/worker/jobs/TakesPort.ts"\nexport const u = j\n',
  "packages/web/src/pages/Page.ts": "export const page = 1\n",
  // good: the start entry mounts the web UI
  "packages/http/src/server/ServerLayer.ts":
    'import { page } from "../../../web/src/pages/Page.ts"\nexport const s = page\n',
  // bad: a handler draws a page
  "packages/http/src/handlers/UsesWeb.ts":
    'import { page } from "../../../web/src/pages/Page.ts"\nexport const w = page\n',
  // bad: a page reaches into the JSON server
  "packages/web/src/pages/UsesHttp.ts": 'import { h } from "../../../http/src/handlers/Good.ts"\nexport const p = h\n',
  // bad: a page takes a port
  "packages/web/src/pages/TakesPort.ts":
    'import { Ledger } from "../../../core/src/ports/Ledger.ts"\nexport const t = Ledger\n',
  // bad: the shared package imports a root
  "packages/webkit/src/UsesWeb.ts": 'import { page } from "../../web/src/pages/Page.ts"\nexport const k = page\n'
}

/** `npm run depcheck` over the tree: its exit code and its error lines ("rule: from → to"). */
const depcheck = (cwd: string) =>
  new Promise<{ code: number; errors: ReadonlyArray<string> }>((resolve) =>
    execFile(
      process.execPath,
      [
        join(repo, "node_modules/dependency-cruiser/bin/dependency-cruiser.mjs"),
        "packages",
        "--config",
        join(repo, ".dependency-cruiser.cjs")
      ],
      { cwd },
      (error, stdout) =>
        resolve({
          code: typeof error?.code === "number" ? error.code : 0,
          errors: stdout.split("\n").flatMap((line) => {
            const found = /^\s*error (\S+): (\S+) → (\S+)$/.exec(line)
            return found === null ? [] : [`${found[1]}: ${found[2]} -> ${found[3]}`]
          })
        })
    )
  )

describe("depcheck rules", () => {
  it("refuses a root taking a port, the core index passing one on, http importing worker, web and http importing each other; allows the rest", async () => {
    const dir = mkdtempSync(join(tmpdir(), "depcheck-"))
    try {
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, path)), { recursive: true })
        writeFileSync(join(dir, path), text)
      }
      mkdirSync(join(dir, "node_modules/@resale"), { recursive: true })
      symlinkSync(join(dir, "packages/core"), join(dir, "node_modules/@resale/core"))
      symlinkSync(join(dir, "packages/worker"), join(dir, "node_modules/@resale/worker"))

      const { code, errors } = await depcheck(dir)
      assert.deepStrictEqual(errors.toSorted(), [
        "core-index-exports-no-port: packages/core/src/index.ts -> packages/core/src/ports/Ledger.ts",
        "http-imports-no-web: packages/http/src/handlers/UsesWeb.ts -> packages/web/src/pages/Page.ts",
        "http-imports-no-worker: packages/http/src/handlers/UsesWorker.ts -> packages/worker/src/jobs/TakesPort.ts",
        "only-ports-reexport-ports: packages/core/src/index.ts -> packages/core/src/ports/Ledger.ts",
        "only-ports-reexport-ports: packages/core/src/ledger/Leak.ts -> packages/core/src/ports/Ledger.ts",
        "roots-call-use-cases-only: packages/http/src/handlers/TakesPort.ts -> packages/core/src/ports/index.ts",
        "roots-call-use-cases-only: packages/web/src/pages/TakesPort.ts -> packages/core/src/ports/Ledger.ts",
        "roots-call-use-cases-only: packages/worker/src/jobs/TakesPort.ts -> packages/core/src/ports/Ledger.ts",
        "web-imports-no-http: packages/web/src/pages/UsesHttp.ts -> packages/http/src/handlers/Good.ts",
        "webkit-imports-no-root: packages/webkit/src/UsesWeb.ts -> packages/web/src/pages/Page.ts"
      ])
      assert.notStrictEqual(code, 0, "npm run depcheck exits non-zero")
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
