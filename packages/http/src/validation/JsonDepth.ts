/**
 * How deeply a JSON text nests, measured on the text before it is parsed: `[[[[...]]]]` parses
 * fine but overflows the stack of whatever walks the value afterwards (schemas, redaction, logs).
 * No request of this service nests more than a few levels; deeper ones are refused as 4xx.
 */
export const MAX_JSON_DEPTH = 32

/** Whether `text` opens more than `max` arrays or objects inside each other (strings are skipped). */
export const jsonTooDeep = (text: string, max: number = MAX_JSON_DEPTH): boolean => {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 92 /* \ */) i++
      else if (c === 34 /* " */) inString = false
      continue
    }
    if (c === 34) inString = true
    else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > max) return true
    } else if (c === 93 /* ] */ || c === 125 /* } */) depth--
  }
  return false
}
