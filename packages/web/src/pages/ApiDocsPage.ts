import { escape as escapeHtml } from "../Html.ts"

/**
 * The API reference, rendered on the server from the OpenAPI document the API serves at
 * /v2/openapi.json: no script and no CDN, so it works offline.
 */
type Json = Record<string, unknown>

const refName = (ref: string) => ref.split("/").pop() ?? ref

const schemaText = (schema: unknown, doc: Json, depth = 0): string => {
  if (!schema || typeof schema !== "object") return "any"
  const s = schema as Json
  if (typeof s["$ref"] === "string") {
    const name = refName(s["$ref"])
    const target = ((doc["components"] as Json | undefined)?.["schemas"] as Json | undefined)?.[name]
    return depth < 1 && target ? `${name} ${schemaText(target, doc, depth + 1)}` : name
  }
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    if (Array.isArray(s[key])) return (s[key] as Array<unknown>).map((m) => schemaText(m, doc, depth)).join(" | ")
  }
  if (s["type"] === "array") return `array of ${schemaText(s["items"], doc, depth)}`
  if (s["type"] === "object" && s["properties"]) {
    const required = new Set((s["required"] as Array<string> | undefined) ?? [])
    const props = Object.entries(s["properties"] as Json).map(
      ([k, v]) => `${k}${required.has(k) ? "" : "?"}: ${schemaText(v, doc, depth + 1)}`
    )
    return `{ ${props.join(", ")} }`
  }
  return String(s["type"] ?? (s["const"] !== undefined ? JSON.stringify(s["const"]) : "any"))
}

const METHODS = new Set(["get", "post", "put", "patch", "delete"])

const operationSection = (doc: Json, path: string, method: string, op: Json): string => {
  const params = ((op["parameters"] as Array<Json> | undefined) ?? []).map(
    (p) =>
      `<li><code>${escapeHtml(String(p["name"]))}</code> in ${escapeHtml(String(p["in"]))}` +
      `${p["required"] ? " (required)" : ""}: ${escapeHtml(schemaText(p["schema"], doc))}` +
      `${p["description"] ? ` - ${escapeHtml(String(p["description"]))}` : ""}</li>`
  )
  const content = ((op["requestBody"] as Json | undefined)?.["content"] ?? {}) as Record<string, Json>
  const bodies = Object.entries(content).map(
    ([type, c]) => `<li>${escapeHtml(type)}: <code>${escapeHtml(schemaText(c["schema"], doc))}</code></li>`
  )
  const responses = Object.entries((op["responses"] ?? {}) as Record<string, Json>).map(([status, r]) => {
    const rc = (r["content"] ?? {}) as Record<string, Json>
    const shape = Object.entries(rc)
      .map(([type, c]) => `${type}: ${schemaText(c["schema"], doc)}`)
      .join("; ")
    return `<li><strong>${escapeHtml(status)}</strong> ${escapeHtml(String(r["description"] ?? ""))} <code>${escapeHtml(shape)}</code></li>`
  })
  const security = ((op["security"] as Array<Json> | undefined) ?? []).flatMap((s) => Object.keys(s))
  return (
    `<section class="endpoint" id="${escapeHtml(`${method}-${path}`)}"><h4><code>${method.toUpperCase()} ${escapeHtml(path)}</code>` +
    `${op["summary"] ? ` ${escapeHtml(String(op["summary"]))}` : ""}</h4>` +
    (op["description"] ? `<p>${escapeHtml(String(op["description"]))}</p>` : "") +
    `<p>Authentication: ${security.length ? security.map((s) => `<a href="#auth-${escapeHtml(s)}">${escapeHtml(s)}</a>`).join(" or ") : "none"}</p>` +
    (params.length ? `<p>Parameters</p><ul>${params.join("")}</ul>` : "") +
    (bodies.length ? `<p>Request body</p><ul>${bodies.join("")}</ul>` : "") +
    `<p>Responses</p><ul>${responses.join("")}</ul></section>`
  )
}

/** The operations grouped by tag, each tag with its description, after a navigation list of the tags. */
export const renderApiSections = (doc: Json): string => {
  const paths = (doc["paths"] ?? {}) as Record<string, Record<string, Json>>
  const tags = ((doc["tags"] as Array<Json> | undefined) ?? []).map((t) => ({
    name: String(t["name"]),
    description: String(t["description"] ?? "")
  }))
  const byTag = new Map<string, Array<string>>()
  for (const [path, methods] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(methods)) {
      if (!METHODS.has(method) || typeof op !== "object" || op === null) continue
      const tag = String((op["tags"] as Array<string> | undefined)?.[0] ?? "other")
      byTag.set(tag, [...(byTag.get(tag) ?? []), operationSection(doc, path, method, op)])
    }
  }
  const listed = tags.filter((t) => byTag.has(t.name))
  const nav = `<nav aria-label="API sections"><ul>${listed
    .map((t) => `<li><a href="#tag-${escapeHtml(t.name)}">${escapeHtml(t.name)}</a> ${escapeHtml(t.description)}</li>`)
    .join("")}</ul></nav>`
  return (
    nav +
    listed
      .map(
        (t) =>
          `<section class="tag" id="tag-${escapeHtml(t.name)}"><h3>${escapeHtml(t.name)}</h3><p>${escapeHtml(t.description)}</p>` +
          (byTag.get(t.name) ?? []).join("") +
          "</section>"
      )
      .join("")
  )
}

/** The security schemes of the document: who sends what. */
export const renderAuthSection = (doc: Json): string => {
  const schemes = ((doc["components"] as Json | undefined)?.["securitySchemes"] ?? {}) as Record<string, Json>
  const items = Object.entries(schemes).map(
    ([name, s]) =>
      `<li id="auth-${escapeHtml(name)}"><strong>${escapeHtml(name)}</strong>: ${escapeHtml(String(s["in"]))} ` +
      `<code>${escapeHtml(String(s["name"]))}</code> - ${escapeHtml(String(s["description"] ?? ""))}</li>`
  )
  return `<section id="authentication"><h3>Authentication</h3><ul>${items.join("")}</ul></section>`
}
