/** Plain server-rendered HTML (the full web UI is a later piece of work; this keeps pages usable). */
export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!)

/** Whether the request prefers an HTML answer (a browser navigation) over the default JSON. */
export const prefersHtml = (accept: string | undefined): boolean => {
  if (!accept) return false
  const html = accept.indexOf("text/html")
  if (html === -1) return false
  const json = accept.indexOf("application/json")
  return json === -1 || html < json
}

const STYLE = `body{font-family:system-ui,sans-serif;max-width:60rem;margin:1rem auto;padding:0 1rem;color:#222}
.sandbox{background:#fff3cd;border:1px solid #e0c060;padding:.4rem .8rem;margin-bottom:1rem}
table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #ccc;padding:.2rem .5rem;text-align:left;vertical-align:top}
nav a{margin-right:1rem}form{margin:.8rem 0}input,textarea{margin:.2rem}code,pre{background:#f4f4f4}`

export interface Layout {
  readonly title: string
  readonly sandbox: boolean
  readonly nav?: ReadonlyArray<readonly [string, string]>
}

export const layout = (page: Layout, body: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
  `<title>${escapeHtml(page.title)}</title><style>${STYLE}</style></head><body>` +
  (page.sandbox ? `<div class="sandbox" role="status">Sandbox mode: no real money moves.</div>` : "") +
  (page.nav
    ? `<nav>${page.nav.map(([href, label]) => `<a href="${escapeHtml(href)}">${escapeHtml(label)}</a>`).join("")}</nav>`
    : "") +
  `<h1>${escapeHtml(page.title)}</h1>${body}</body></html>`

/** Renders any JSON value: objects as two-column tables, arrays of objects as tables. */
export const renderValue = (value: unknown): string => {
  if (value === null || value === undefined) return "<em>none</em>"
  if (Array.isArray(value)) {
    if (value.length === 0) return "<em>none</em>"
    if (value.every((v) => v !== null && typeof v === "object" && !Array.isArray(v))) {
      const keys = [...new Set(value.flatMap((v) => Object.keys(v as object)))]
      return (
        `<table><thead><tr>${keys.map((k) => `<th>${escapeHtml(k)}</th>`).join("")}</tr></thead><tbody>` +
        value
          .map(
            (row) =>
              `<tr>${keys.map((k) => `<td>${renderValue((row as Record<string, unknown>)[k])}</td>`).join("")}</tr>`
          )
          .join("") +
        `</tbody></table>`
      )
    }
    return `<ul>${value.map((v) => `<li>${renderValue(v)}</li>`).join("")}</ul>`
  }
  if (typeof value === "object") {
    return `<table>${Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `<tr><th>${escapeHtml(k)}</th><td>${renderValue(v)}</td></tr>`)
      .join("")}</table>`
  }
  return escapeHtml(String(value))
}

export const form = (
  action: string,
  fields: ReadonlyArray<readonly [name: string, label: string, type?: string]>,
  submit: string
) =>
  `<form method="post" action="${escapeHtml(action)}">` +
  fields
    .map(([name, label, type]) =>
      type === "textarea"
        ? `<label>${escapeHtml(label)} <textarea name="${escapeHtml(name)}"></textarea></label><br>`
        : `<label>${escapeHtml(label)} <input name="${escapeHtml(name)}" type="${type ?? "text"}"></label><br>`
    )
    .join("") +
  `<button type="submit">${escapeHtml(submit)}</button></form>`
