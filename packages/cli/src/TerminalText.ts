/**
 * Text a shopper wrote (ticket subjects and bodies, usernames, recipients, notes, marketplace errors)
 * reaches the operator's terminal only through `terminalSafe`: control characters would otherwise
 * drive it (`\x1b]0;...\x07` retitles the window, `\x1b[2K\r` rewrites the line, U+202E reverses what
 * follows). They are shown as visible escapes instead, so the operator sees what was sent.
 */

// C0 controls, DEL and C1 controls; bidi marks, embeddings, overrides and isolates; line and paragraph separators.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is this module's job
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g
// biome-ignore lint/suspicious/noControlCharactersInRegex: as above, line feed (U+000A) left out
const UNSAFE_KEEPING_NEWLINES = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g

const NAMED: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" }

const visible = (char: string): string => {
  const named = NAMED[char]
  if (named !== undefined) return named
  const code = char.charCodeAt(0)
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`
}

/**
 * `text` with every control and bidi character shown as an escape (`\x1b`, `\u202e`, `\n`).
 * `keepNewlines`: line breaks stay (whole outputs and message bodies); otherwise they are escaped
 * too, so one value stays on one line (a table cell, a field). Idempotent: its output has nothing
 * left to escape.
 */
export const terminalSafe = (text: string, options?: { readonly keepNewlines?: boolean }): string =>
  text.replace(options?.keepNewlines === true ? UNSAFE_KEEPING_NEWLINES : UNSAFE, visible)

/** A multi-line text a person wrote, indented under its heading so no line of it passes for the CLI's own. */
export const indentedBlock = (text: string, indent = "    "): string =>
  text
    .split(/\r\n|\n/)
    .map((line) => `${indent}${terminalSafe(line)}`)
    .join("\n")

// JSON.stringify escapes C0 only; DEL, C1 (U+009B is a CSI to some terminals) and bidi marks pass raw.
const UNSAFE_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g

/** JSON text with the characters JSON.stringify leaves raw written as `\uXXXX` (the same JSON value). */
export const jsonTerminalSafe = (json: string): string =>
  json.replace(UNSAFE_IN_JSON, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`)
