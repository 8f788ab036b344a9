/**
 * Turns a served OpenAPI document into the TypeScript `paths` types an integrator's client uses,
 * exactly as `npx openapi-typescript <document> -o <file>` does (same defaults, same header), so the
 * committed types and a fresh generation compare byte for byte.
 */
import { readFileSync } from "node:fs"
import openapiTS, { astToString, COMMENT_HEADER } from "openapi-typescript"

/** `document`: the JSON text of an OpenAPI 3.1 document, as a server answers it. */
export const generateTypes = async (document: string): Promise<string> =>
  `${COMMENT_HEADER}${astToString(await openapiTS(document, { silent: true }))}`

/**
 * The documents the server serves, the names `npm run lint:openapi` writes them under, and the
 * committed files generated from them.
 */
export const DOCUMENTS = [
  { name: "v2", path: "/v2/openapi.json", file: "generated/v2.ts" },
  { name: "direct", path: "/direct/openapi.json", file: "generated/direct.ts" }
] as const

/** Where a committed file lives (`file` as in DOCUMENTS), and its text. */
export const committedPath = (file: string): URL => new URL(`./${file}`, import.meta.url)
export const committedTypes = (file: string): string => readFileSync(committedPath(file), "utf8")
