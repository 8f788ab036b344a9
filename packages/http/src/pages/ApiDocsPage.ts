import { escapeHtml, layout } from "./Html.ts"

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
    const props = Object.entries(s["properties"] as Json)
      .map(([k, v]) => `${k}${required.has(k) ? "" : "?"}: ${schemaText(v, doc, depth + 1)}`)
    return `{ ${props.join(", ")} }`
  }
  return String(s["type"] ?? (s["const"] !== undefined ? JSON.stringify(s["const"]) : "any"))
}

/** One section per operation of the OpenAPI document: parameters, request bodies, responses. */
export const renderApiSections = (doc: Json): string => {
  const paths = (doc["paths"] ?? {}) as Record<string, Record<string, Json>>
  const sections: Array<string> = []
  for (const [path, methods] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(methods)) {
      if (typeof op !== "object" || op === null || !("responses" in op)) continue
      const params = ((op["parameters"] as Array<Json> | undefined) ?? [])
        .map((p) =>
          `<li><code>${escapeHtml(String(p["name"]))}</code> in ${escapeHtml(String(p["in"]))}` +
          `${p["required"] ? " (required)" : ""}: ${escapeHtml(schemaText(p["schema"], doc))}</li>`
        )
      const content = ((op["requestBody"] as Json | undefined)?.["content"] ?? {}) as Record<string, Json>
      const bodies = Object.entries(content).map(([type, c]) =>
        `<li>${escapeHtml(type)}: <code>${escapeHtml(schemaText(c["schema"], doc))}</code></li>`
      )
      const responses = Object.entries(op["responses"] as Record<string, Json>).map(([status, r]) => {
        const rc = (r["content"] ?? {}) as Record<string, Json>
        const shape = Object.entries(rc).map(([type, c]) => `${type}: ${schemaText(c["schema"], doc)}`).join("; ")
        return `<li><strong>${escapeHtml(status)}</strong> ${escapeHtml(String(r["description"] ?? ""))} <code>${escapeHtml(shape)}</code></li>`
      })
      sections.push(
        `<section class="endpoint" id="${escapeHtml(`${method}-${path}`)}"><h3><code>${method.toUpperCase()} ${escapeHtml(path)}</code></h3>` +
          (params.length ? `<p>Parameters</p><ul>${params.join("")}</ul>` : "") +
          (bodies.length ? `<p>Request body</p><ul>${bodies.join("")}</ul>` : "") +
          `<p>Responses</p><ul>${responses.join("")}</ul></section>`
      )
    }
  }
  return sections.join("")
}

export const renderApiDocs = (
  doc: Json,
  options: { readonly sandbox: boolean; readonly extra: string }
): string => {
  const info = (doc["info"] ?? {}) as Json
  return layout(
    { title: `${String(info["title"] ?? "API")} ${String(info["version"] ?? "")}`, sandbox: options.sandbox },
    options.extra +
      `<p>Machine-readable: <a href="/v2/openapi.json">/v2/openapi.json</a> (OpenAPI ${escapeHtml(String(doc["openapi"] ?? ""))}).</p>` +
      `<p>User calls send <code>X-API-Key</code>; operator calls send <code>X-Admin-Token</code>. ` +
      `Money-moving POSTs accept <code>Idempotency-Key</code>.</p>` +
      renderApiSections(doc)
  )
}
