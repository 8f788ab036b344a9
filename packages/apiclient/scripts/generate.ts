/**
 * Regenerates the committed client types (`src/generated/v2.ts`, `src/generated/direct.ts`) from a running server's
 * documents or from the files `npm run lint:openapi` writes:
 *   node packages/apiclient/scripts/generate.ts http://127.0.0.1:8000
 *   node packages/apiclient/scripts/generate.ts .tsbuild/openapi     (v2.json, direct.json)
 */
import { readFileSync, writeFileSync } from "node:fs"
import { committedPath, DOCUMENTS, generateTypes } from "../src/generate.ts"

const source = process.argv[2] ?? ".tsbuild/openapi"

const read = async (name: string, path: string): Promise<string> => {
  if (!/^https?:\/\//.test(source)) return readFileSync(`${source}/${name}.json`, "utf8")
  const response = await fetch(new URL(path, source))
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`)
  return await response.text()
}

for (const { file, name, path } of DOCUMENTS) {
  writeFileSync(committedPath(file), await generateTypes(await read(name, path)))
  console.log(`${path} -> packages/apiclient/src/${file}`)
}
