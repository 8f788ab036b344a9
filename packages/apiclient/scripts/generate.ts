/**
 * Regenerates the committed client types (`src/generated/v2.ts`, `src/generated/direct.ts`) from a
 * running server's documents or from the files `npm run lint:openapi` writes; with `--check` it
 * only compares, and exits 1 when they differ (run by `npm run lint:openapi`):
 *   node packages/apiclient/scripts/generate.ts http://127.0.0.1:8000
 *   node packages/apiclient/scripts/generate.ts .tsbuild/openapi     (v2.json, direct.json)
 *   node packages/apiclient/scripts/generate.ts --check .tsbuild/openapi
 */
import { readFileSync, writeFileSync } from "node:fs"
import { committedPath, committedTypes, DOCUMENTS, generateTypes } from "../src/generate.ts"

const check = process.argv.includes("--check")
const source = process.argv.slice(2).find((a) => a !== "--check") ?? ".tsbuild/openapi"

const read = async (name: string, path: string): Promise<string> => {
  if (!/^https?:\/\//.test(source)) return readFileSync(`${source}/${name}.json`, "utf8")
  const response = await fetch(new URL(path, source))
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`)
  return await response.text()
}

for (const { file, name, path } of DOCUMENTS) {
  const types = await generateTypes(await read(name, path))
  if (!check) {
    writeFileSync(committedPath(file), types)
    console.log(`${path} -> packages/apiclient/src/${file}`)
  } else if (types !== committedTypes(file)) {
    console.error(
      `packages/apiclient/src/${file} is not what ${path} generates: run \`npm run generate:client\` and commit it`
    )
    process.exitCode = 1
  }
}
