import { STARS_MAX, STARS_MIN } from "@resale/core/orders/OrderRules.ts"
import type { ReceiptContentType } from "@resale/core/topups/ReceiptRules.ts"
import { ADMIN_COOKIE, USER_COOKIE } from "@resale/webkit/SessionCookie.ts"
import { MEDIA_EXAMPLES, REQUEST_EXAMPLES, RESPONSE_EXAMPLES, SCHEMA_EXAMPLES } from "./OpenApiExamples.ts"
import { LIST_LIMIT_MAX } from "./ListsApi.ts"
import { OPERATIONS, TAGS } from "./OperationDocs.ts"
import { type RouteTable, securityByOperation } from "./OpenApiSecurity.ts"

/**
 * What the generated OpenAPI document does not say by itself, added in one pass over it: the
 * security schemes and each operation's requirement (its auth middleware's, `OpenApiSecurity.ts`),
 * every error body's `code` and `request_id` required, summaries and tags, integer ids, business limits, examples,
 * the 303s' headers, /healthz, and response schemas open to new fields.
 */
type Json = Record<string, any>

const SECURITY_SCHEMES = {
  apiKey: {
    type: "apiKey",
    in: "header",
    name: "X-API-Key",
    description: "The user's API key (Dashboard -> API key)."
  },
  adminToken: { type: "apiKey", in: "header", name: "X-Admin-Token", description: "The operator's admin token." },
  userSession: {
    type: "apiKey",
    in: "cookie",
    name: USER_COOKIE,
    description: "The shopper's session, set by the Telegram sign-in (web pages and forms)."
  },
  operatorSession: {
    type: "apiKey",
    in: "cookie",
    name: ADMIN_COOKIE,
    description: "The operator's session, set by POST /v2/admin/login."
  }
}

/** Headers that are security schemes now, not parameters. */
const CREDENTIAL_HEADERS = new Set(["x-api-key", "x-admin-token"])
const NUMERIC_TEXT = "^[+-]?(?:\\d+(?:\\.\\d+)?|\\.\\d+)(?:[Ee][+-]?\\d+)?$"

/** Business limits and closed sets the server enforces with a coded 400 (not in the schema decoders). */
const LIMITS: Record<string, Record<string, Json>> = {
  StarsOrderRequest: {
    amount: { minimum: STARS_MIN, maximum: STARS_MAX },
    username: { pattern: "^@?[A-Za-z0-9_]{4,32}$" }
  },
  PremiumOrderRequest: { duration: { enum: [3, 6, 12] }, username: { pattern: "^@?[A-Za-z0-9_]{4,32}$" } },
  GiftOrderRequest: { username: { pattern: "^@?[A-Za-z0-9_]{4,32}$" } }
}

/** Query parameters whose bounds the encoded (text) schema loses, by operation. */
const PAGE_LIMIT = {
  type: "integer",
  minimum: 1,
  maximum: LIST_LIMIT_MAX,
  default: 20,
  description: `Items per page, 1 to ${LIST_LIMIT_MAX}; outside these bounds the answer is 422.`
}
const QUERY_LIMITS: Record<string, Record<string, Json>> = {
  "lists.listOrders": { limit: PAGE_LIMIT },
  "lists.listTopups": { limit: PAGE_LIMIT }
}
/** Fields kept for older clients: effect's Schema annotations carry no `deprecated`, so it is set here. */
const DEPRECATED: Record<string, ReadonlyArray<string>> = { Order: ["months"], AdminOrder: ["months"] }

const REDIRECT_HEADERS = {
  Location: { description: "Where the browser goes next.", schema: { type: "string" } },
  "Set-Cookie": {
    description: "The session cookie set or cleared (HttpOnly, SameSite=Lax).",
    schema: { type: "string" }
  }
}

const HEALTHZ = {
  get: {
    tags: ["health"],
    operationId: "health.healthz",
    summary: "Health",
    description: "200 while the database answers, 503 otherwise. No authentication.",
    security: [],
    responses: {
      "200": {
        description: "Up",
        content: {
          "application/json": {
            schema: { type: "object", properties: { status: { type: "string", enum: ["ok"] } } },
            example: { status: "ok" }
          }
        }
      },
      "503": {
        description: "The database does not answer",
        content: {
          "application/json": {
            schema: { type: "object", properties: { status: { type: "string", enum: ["database unreachable"] } } },
            example: { status: "database unreachable" }
          }
        }
      }
    }
  }
}

/** Removes `additionalProperties: false` and the safe-integer bounds effect writes on every integer. */
const relax = (node: unknown): void => {
  if (Array.isArray(node)) return node.forEach(relax)
  if (node === null || typeof node !== "object") return
  const o = node as Json
  if (o["additionalProperties"] === false) delete o["additionalProperties"]
  if (o["type"] === "integer" && o["minimum"] === -9007199254740991) delete o["minimum"]
  if (o["type"] === "integer" && o["maximum"] === 9007199254740991) delete o["maximum"]
  Object.values(o).forEach(relax)
}

/** Integer ids are at least 1, wherever they appear in a schema's properties. */
const positiveIds = (schema: Json): void => {
  for (const [name, property] of Object.entries<Json>(schema["properties"] ?? {})) {
    if (!name.endsWith("_id")) continue
    if (property["type"] === "integer") property["minimum"] = 1
    for (const member of property["anyOf"] ?? []) if (member["type"] === "integer") member["minimum"] = 1
  }
}

const fixParameter = (parameter: Json): Json => {
  if (parameter["schema"]?.["pattern"] === NUMERIC_TEXT) {
    parameter["schema"] = {
      type: "integer",
      ...(parameter["name"].endsWith("_id") || parameter["name"] === "cursor" ? { minimum: 1 } : {})
    }
  }
  return parameter
}

/** The schemas answered with a status of 400 or more (FastAPI's 422 and the coded errors). */
const errorSchemas = (spec: Json): Set<string> => {
  const names = new Set<string>()
  for (const operations of Object.values<Json>(spec["paths"]))
    for (const operation of Object.values<Json>(operations))
      for (const [status, response] of Object.entries<Json>(operation["responses"] ?? {}))
        for (const media of Object.values<Json>(response["content"] ?? {})) {
          const ref: string | undefined = media["schema"]?.["$ref"]
          if (Number(status) >= 400 && ref !== undefined) names.add(ref.split("/").pop()!)
        }
  return names
}

/** The server stamps both on every error body where answers are sent (`server/ErrorBody.ts`). */
const requireCodeAndRequestId = (schema: Json): void => {
  schema["required"] = [...new Set([...(schema["required"] ?? []), "code", "request_id"])]
}

/** Examples of the inline bodies (a `$ref`'d schema carries its own). */
const exemplify = (operation: Json): void => {
  for (const media of Object.values<Json>(operation["requestBody"]?.["content"] ?? {})) {
    const example = REQUEST_EXAMPLES[operation["operationId"]]
    if (media["schema"]?.["$ref"] === undefined && example !== undefined) media["example"] = example
  }
  const answer = RESPONSE_EXAMPLES[operation["operationId"]]
  for (const media of Object.values<Json>(operation["responses"]?.["200"]?.["content"] ?? {}))
    if (answer !== undefined) media["example"] = answer
  for (const response of Object.values<Json>(operation["responses"] ?? {})) {
    for (const [type, media] of Object.entries<Json>(response["content"] ?? {})) {
      if (media["schema"]?.["$ref"] === undefined && MEDIA_EXAMPLES[type] !== undefined)
        media["example"] = MEDIA_EXAMPLES[type]
    }
  }
}

/** A receipt is served with the type its first bytes show (`ReceiptRules.ts`), never as octet-stream. */
const RECEIPT_TYPES: ReadonlyArray<ReceiptContentType> = [
  "image/jpeg",
  "image/png",
  "image/webp",
  "image/gif",
  "image/heic",
  "application/pdf"
]
const receiptTypes = (operation: Json): void => {
  const success: Json | undefined = operation["responses"]?.["200"]
  const binary: Json | undefined = success?.["content"]?.["application/octet-stream"]
  if (operation["operationId"] !== "public.receipt" || binary === undefined) return
  success!["content"] = Object.fromEntries(RECEIPT_TYPES.map((type) => [type, { ...binary }]))
}

/** The transform of the document of `api` (its route table says who may call what). */
export const contractTransform = (api: RouteTable) => {
  const security = securityByOperation(api)
  return (spec: Json): Json => transform(spec, security)
}

const transform = (spec: Json, security: ReturnType<typeof securityByOperation>): Json => {
  relax(spec)
  spec["servers"] = [{ url: "/", description: "This server" }]
  spec["info"] = { ...spec["info"], license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" } }
  spec["components"] = { ...spec["components"], securitySchemes: SECURITY_SCHEMES }
  const schemas: Json = spec["components"]["schemas"] ?? {}
  for (const schema of Object.values<Json>(schemas)) positiveIds(schema)
  for (const [name, limits] of Object.entries(LIMITS)) {
    for (const [field, extra] of Object.entries(limits))
      Object.assign(schemas[name]?.["properties"]?.[field] ?? {}, extra)
  }
  for (const name of errorSchemas(spec)) if (schemas[name]) requireCodeAndRequestId(schemas[name])
  for (const [name, fields] of Object.entries(DEPRECATED)) {
    for (const field of fields) Object.assign(schemas[name]?.["properties"]?.[field] ?? {}, { deprecated: true })
  }
  for (const [name, example] of Object.entries(SCHEMA_EXAMPLES))
    if (schemas[name]) schemas[name]["examples"] = [example]
  for (const [path, operations] of Object.entries<Json>(spec["paths"])) {
    for (const [method, operation] of Object.entries<Json>(operations)) {
      const docs = OPERATIONS[operation["operationId"]]
      if (docs) Object.assign(operation, docs)
      operation["security"] = security.get(`${method} ${path}`) ?? []
      operation["parameters"] = (operation["parameters"] ?? [])
        .filter((p: Json) => !(p["in"] === "header" && CREDENTIAL_HEADERS.has(p["name"])))
        .map(fixParameter)
        .map((p: Json) => {
          const bounds = QUERY_LIMITS[operation["operationId"]]?.[p["name"]]
          return bounds === undefined || p["in"] !== "query" ? p : { ...p, schema: bounds }
        })
      exemplify(operation)
      receiptTypes(operation)
      const redirect = operation["responses"]?.["303"]
      if (redirect) Object.assign(redirect, { description: "Redirect (See Other)", headers: REDIRECT_HEADERS })
    }
  }
  spec["paths"]["/healthz"] = HEALTHZ
  spec["tags"] = Object.entries(TAGS).map(([name, description]) => ({ name, description }))
  return spec
}
