import { escape } from "../Html.ts"

/**
 * A failed form is answered with a redirect back to its page (post/redirect/get). So that the
 * shopper sees the failure where they were looking and types nothing twice, the page puts the
 * message right under the heading of the form's section (the one the redirect's `#anchor` scrolls
 * to) and fills the fields back in with what was posted. Both work on the page's finished markup,
 * so every form drawn with the shared components gets it without its page knowing.
 */

/** Fields never put back: tokens, keys and anything that could be a secret. */
const NEVER_KEPT = /csrf|idempotency|token|password|secret|key|mnemonic/i

/** Keeps the posted text fields worth putting back, each cut to a sane length. */
export const keptValues = (fields: Readonly<Record<string, string>>): Record<string, string> => {
  const kept: Record<string, string> = {}
  for (const [name, value] of Object.entries(fields)) {
    if (!NEVER_KEPT.test(name) && /^[a-z_]{1,40}$/.test(name)) kept[name] = value.slice(0, 1000)
  }
  return kept
}

/** Start and end (exclusive) of the element whose id is `id` (a section, a card, a form), or undefined. */
const sectionBounds = (page: string, id: string): readonly [number, number] | undefined => {
  const at = page.indexOf(` id="${id}"`)
  if (at < 0) return undefined
  const start = page.lastIndexOf("<", at)
  const tag = /^<([a-z]+)/.exec(page.slice(start))?.[1]
  if (start < 0 || tag === undefined) return undefined
  const close = page.indexOf(`</${tag}>`, at)
  return close < 0 ? undefined : [start, close]
}

/** The page with `box` placed right after the heading of section `id`; undefined when there is none. */
export const placeInSection = (page: string, id: string, box: string): string | undefined => {
  const bounds = sectionBounds(page, id)
  if (!bounds) return undefined
  const heading = /<\/h[1-4]>/.exec(page.slice(bounds[0], bounds[1]))
  const at = heading ? bounds[0] + heading.index + heading[0].length : page.indexOf(">", bounds[0]) + 1
  return page.slice(0, at) + box + page.slice(at)
}

const attr = (tag: string, name: string): string | undefined => new RegExp(` ${name}="([^"]*)"`).exec(tag)?.[1]

const SKIPPED_INPUTS = new Set(["hidden", "file", "checkbox", "radio", "submit", "button", "password"])

const refillInputs = (part: string, values: Readonly<Record<string, string>>): string =>
  part.replace(/<input [^>]*>/g, (tag) => {
    const name = attr(tag, "name")
    if (name === undefined || values[name] === undefined || SKIPPED_INPUTS.has(attr(tag, "type") ?? "text")) return tag
    return tag.replace(/ value="[^"]*"/, "").replace(/^<input /, `<input value="${escape(values[name])}" `)
  })

const refillTextareas = (part: string, values: Readonly<Record<string, string>>): string =>
  part.replace(/(<textarea [^>]*>)[^<]*(<\/textarea>)/g, (whole, open: string, close: string) => {
    const name = attr(open, "name")
    return name !== undefined && values[name] !== undefined ? open + escape(values[name]) + close : whole
  })

const refillSelects = (part: string, values: Readonly<Record<string, string>>): string =>
  part.replace(/(<select [^>]*>)([\s\S]*?)(<\/select>)/g, (whole, open: string, options: string, close: string) => {
    const name = attr(open, "name")
    const chosen = name === undefined ? undefined : values[name]
    if (chosen === undefined || !options.includes(`value="${escape(chosen)}"`)) return whole
    const marked = options
      .replace(/ selected/g, "")
      .replace(`value="${escape(chosen)}"`, `value="${escape(chosen)}" selected`)
    return open + marked + close
  })

/** A radio group chooses the posted value again (the gift picker). */
const refillRadios = (part: string, values: Readonly<Record<string, string>>): string =>
  part.replace(/<input [^>]*type="radio"[^>]*>/g, (tag) => {
    const name = attr(tag, "name")
    if (name === undefined || values[name] === undefined) return tag
    const plain = tag.replace(/ checked/g, "")
    return attr(tag, "value") === escape(values[name]) ? plain.replace(/^<input /, "<input checked ") : plain
  })

/** The page with section `id`'s fields holding `values` again. */
export const refillSection = (page: string, id: string, values: Readonly<Record<string, string>>): string => {
  const bounds = sectionBounds(page, id)
  if (!bounds) return page
  const part = refillRadios(
    refillSelects(refillTextareas(refillInputs(page.slice(bounds[0], bounds[1]), values), values), values),
    values
  )
  return page.slice(0, bounds[0]) + part + page.slice(bounds[1])
}
