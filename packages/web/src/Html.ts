/**
 * HTML built from tagged templates that escape every interpolated value unless it is already
 * `Html`: user data (usernames, ticket bodies, admin notes) can never become markup.
 */
const HtmlTypeId = Symbol.for("http/web/Html")

export interface Html {
  readonly [HtmlTypeId]: true
  readonly value: string
}

const make = (value: string): Html => ({ [HtmlTypeId]: true, value })

export const isHtml = (u: unknown): u is Html => typeof u === "object" && u !== null && HtmlTypeId in u

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }

export const escape = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!)

/** A value an `html` template accepts: text is escaped; null, undefined and false render nothing. */
export type Interpolation = Html | string | number | boolean | null | undefined | ReadonlyArray<Interpolation>

const render = (value: Interpolation): string => {
  if (value === null || value === undefined || value === false || value === true) return ""
  if (typeof value === "number") return String(value)
  if (typeof value === "string") return escape(value)
  if (isHtml(value)) return value.value
  return (value as ReadonlyArray<Interpolation>).map(render).join("")
}

/** `html\`<p>${name}</p>\`` with `name` escaped. */
export const html = (strings: TemplateStringsArray, ...values: ReadonlyArray<Interpolation>): Html => {
  let out = strings[0] ?? ""
  for (let i = 0; i < values.length; i++) out += render(values[i]) + (strings[i + 1] ?? "")
  return make(out)
}

/** Markup that is trusted as is (constants of this module only, never request data). */
export const unsafeRaw = (markup: string): Html => make(markup)

export const join = (parts: ReadonlyArray<Interpolation>, separator: Interpolation = ""): Html =>
  make(parts.map(render).join(render(separator)))

export const toString = (value: Html): string => value.value

/** JSON for a `<script type="application/json">` block: `<` is escaped so no tag can close it. */
export const jsonBlock = (id: string, data: unknown): Html =>
  make(
    `<script type="application/json" id="${escape(id)}">${JSON.stringify(data)
      .replace(/</g, "\\u003c")
      .replace(/\u2028/g, "\\u2028")
      .replace(/\u2029/g, "\\u2029")}</script>`
  )

/** Whether the request prefers an HTML answer (a browser navigation) over the default JSON. */
export const prefersHtml = (accept: string | undefined): boolean => {
  if (!accept) return false
  const html = accept.indexOf("text/html")
  if (html === -1) return false
  const json = accept.indexOf("application/json")
  return json === -1 || html < json
}
