/**
 * Writes the OpenAPI documents the server serves (`v2.json` = `/v2/openapi.json`, `direct.json` = `/direct/openapi.json`) into the folder
 * given as the first argument, so `npm run lint:openapi` checks exactly what clients download.
 */
import { OpenApi } from "effect/http-api"
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { Api } from "../src/api/Api.ts"
import { directOpenApi } from "../src/direct/DirectOpenApi.ts"

const folder = process.argv[2] ?? ".tsbuild/openapi"
mkdirSync(folder, { recursive: true })
writeFileSync(join(folder, "v2.json"), JSON.stringify(OpenApi.fromApi(Api), null, 2) + "\n")
writeFileSync(join(folder, "direct.json"), JSON.stringify(directOpenApi, null, 2) + "\n")
