/**
 * Checks real answers against an OpenAPI 3.1 document, stricter than the document itself: every
 * object schema that lists properties is closed (`additionalProperties: false`), so an answer field
 * the document does not declare fails as surely as a missing required one. The document stays open
 * to new fields for clients; this check is what keeps it complete.
 */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js"

type Json = Record<string, any>

const COMPONENTS = "components"

/** A deep copy with `$ref`s pointing into the components schema and every object with properties closed. */
const strict = (node: unknown): unknown => {
  if (Array.isArray(node)) return node.map(strict)
  if (node === null || typeof node !== "object") return node
  const out: Json = {}
  for (const [key, value] of Object.entries(node as Json)) {
    if (key === "examples" || key === "example") continue // examples are data, not schemas
    out[key] =
      key === "$ref" && typeof value === "string"
        ? value.replace("#/components/schemas/", `${COMPONENTS}#/$defs/`)
        : key === "properties"
          ? Object.fromEntries(Object.entries(value as Json).map(([name, schema]) => [name, strict(schema)]))
          : strict(value)
  }
  if (out["properties"] !== undefined) out["additionalProperties"] = false
  return out
}

export interface Answer {
  readonly status: number
  readonly headers: Record<string, string | Array<string> | undefined>
  readonly json: unknown
  readonly text: string
}

/** What one operation has been seen to answer: the statuses checked. */
export type Coverage = Map<string, Set<number>>

export const makeContractCheck = (doc: Json) => {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false })
  ajv.addSchema({ $id: COMPONENTS, $defs: strict(doc["components"]?.["schemas"] ?? {}) as Json })
  const compiled = new Map<string, ValidateFunction>()
  const coverage: Coverage = new Map()
  const problems: Array<string> = []

  const operations = (): Array<string> =>
    Object.entries<Json>(doc["paths"]).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`)
    )

  /** Checks `answer` as the answer of `operation` ("POST /v2/api/stars/buy", the document's path template). */
  const check = <A extends Answer>(operation: string, answer: A): A => {
    const [method, path] = operation.split(" ") as [string, string]
    const op: Json | undefined = doc["paths"][path]?.[method.toLowerCase()]
    if (op === undefined) {
      problems.push(`${operation}: not in the document`)
      return answer
    }
    const seen = coverage.get(operation) ?? new Set<number>()
    coverage.set(operation, seen.add(answer.status))
    const response: Json | undefined = op["responses"][String(answer.status)]
    if (response === undefined) {
      problems.push(`${operation}: answered ${answer.status}, not documented: ${answer.text.slice(0, 200)}`)
      return answer
    }
    const type = String(answer.headers["content-type"] ?? "").split(";")[0]!
    const media: Json | undefined = response["content"]?.[type]
    if (response["content"] === undefined) {
      if (answer.text !== "") problems.push(`${operation} ${answer.status}: a body where none is documented`)
      return answer
    }
    if (media === undefined) {
      problems.push(`${operation} ${answer.status}: content-type ${type} not documented`)
      return answer
    }
    if (type !== "application/json") return answer
    const key = `${operation} ${answer.status}`
    const validate = compiled.get(key) ?? ajv.compile(strict(media["schema"] ?? {}) as Json)
    compiled.set(key, validate)
    if (!validate(answer.json))
      problems.push(`${key}: ${ajv.errorsText(validate.errors)} in ${answer.text.slice(0, 300)}`)
    return answer
  }

  /** Operations never checked with a success (2xx/3xx) answer, and never with an error (4xx/5xx) one. */
  const uncovered = (): { readonly success: Array<string>; readonly error: Array<string> } => {
    const all = operations()
    const some = (operation: string, test: (status: number) => boolean) =>
      [...(coverage.get(operation) ?? [])].some(test)
    return {
      success: all.filter((o) => !some(o, (s) => s < 400)),
      error: all.filter((o) => !some(o, (s) => s >= 400))
    }
  }

  return { check, problems, uncovered, operations }
}
