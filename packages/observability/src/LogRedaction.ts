/**
 * The last line of defence between a secret and a log file: every log line is passed through `scrub`
 * before it is written. Secrets travel as `Redacted` and are never logged on purpose; this catches
 * the accidents (a token inside an error message, a phrase pasted into a username field).
 */
import { wordlist } from "@scure/bip39/wordlists/english.js"

export const REDACTED = "<redacted>"
export const PHRASE_PLACEHOLDER = "<MNEMONIC_PHRASE>"

const WORDS = new Set(wordlist)
// Six word-list words in a row occur in phrases, not in ids, usernames or addresses.
const PHRASE_RUN = 6
// `rk_` + base64url of 32 bytes: the shape of the API keys the product issues.
const API_KEY = /rk_[A-Za-z0-9_-]{40,}/g
// Settings whose values are secrets, by name.
const SECRET_NAME = /(TOKEN|SECRET|PASSWORD|MNEMONIC|COOKIE|API_KEY|API_HASH|PRIVATE|SEED)/i
const MIN_SECRET_LENGTH = 6

const known = new Set<string>()
let generation = 0

/** Changes whenever a secret is added: text scrubbed before may scrub differently now. */
export const secretsGeneration = (): number => generation

/** Adds a secret the process made itself (a generated admin token) to the values scrubbed from logs. */
export const registerSecret = (value: string): void => registerSecrets([value])

/**
 * Adds the secret texts of the process's configuration (every setting the catalogue marks secret, their
 * parts, keys derived from them): the entry passes them once it has read its settings.
 */
export const registerSecrets = (values: Iterable<string>): void => {
  for (const value of values) if (value.length >= MIN_SECRET_LENGTH) known.add(value)
  generation++
  remembered.clear()
}

/**
 * Registers the secret values of an environment by name (variables named like secrets, a database URL's
 * password): the net for lines written before the configuration is read; `registerSecrets` follows.
 */
export const registerEnvironmentSecrets = (env: Readonly<Record<string, string | undefined>>): void => {
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value === "") continue
    if (SECRET_NAME.test(name)) registerSecret(value)
    if (name.endsWith("DATABASE_URL")) {
      const password = passwordOf(value)
      if (password !== undefined) registerSecret(password)
    }
  }
}

const passwordOf = (url: string): string | undefined => {
  const parsed = URL.canParse(url) ? new URL(url) : undefined
  return parsed !== undefined && parsed.password !== "" ? decodeURIComponent(parsed.password) : undefined
}

/** `text` with every run of six or more BIP39/TON list words (whatever separates them) replaced by the placeholder. */
export const scrubPhrases = (text: string): string => {
  const runs: Array<readonly [number, number]> = []
  let first = -1
  let last = -1
  let count = 0
  const close = () => {
    if (count >= PHRASE_RUN) runs.push([first, last])
    count = 0
  }
  for (const match of text.matchAll(/[A-Za-z]+/g)) {
    if (WORDS.has(match[0].toLowerCase())) {
      if (count === 0) first = match.index
      last = match.index + match[0].length
      count++
    } else close()
  }
  close()
  let out = text
  for (const [from, to] of runs.toReversed()) out = `${out.slice(0, from)}${PHRASE_PLACEHOLDER}${out.slice(to)}`
  return out
}

/**
 * Whether `text` has at least `PHRASE_RUN` runs of 3 or more letters: no word of the list is shorter,
 * so a text without them holds no phrase. One pass over the characters, no allocation, and no branch
 * on each character: in ids and hashes letters and digits alternate at random, and a branch on them
 * mispredicted often enough to cost the request line more than half of this scan (`bench/http`).
 */
const mayHoldPhrase = (text: string): boolean => {
  let runs = 0
  let letters = 0
  for (let i = 0; i < text.length; i++) {
    // 1 for an ASCII letter of either case, else 0.
    const letter = Number(((text.charCodeAt(i) | 0x20) - 0x61) >>> 0 < 26)
    letters = (letters + 1) * letter
    runs += Number(letters === 3)
  }
  return runs >= PHRASE_RUN
}

// The scrubbed forms of short values that needed the phrase scan (a bounded set), so a repeated one is
// scanned once. Values that cannot hold a phrase (request ids, routes, statuses: most of a request
// line) are decided by one pass and not remembered, so unique ones do not churn the set.
const SHORT = 64
const MAX_REMEMBERED = 4096
const remembered = new Map<string, string>()

/** `text` without known secrets, API keys or anything shaped like a mnemonic phrase. */
export const scrub = (text: string): string => {
  let out = text
  for (const secret of known) if (out.includes(secret)) out = out.split(secret).join(REDACTED)
  if (out.includes("rk_")) out = out.replace(API_KEY, REDACTED)
  if (!mayHoldPhrase(out)) return out
  if (out.length > SHORT) return scrubPhrases(out)
  const seen = remembered.get(out)
  if (seen !== undefined) return seen
  const scrubbed = scrubPhrases(out)
  if (remembered.size >= MAX_REMEMBERED) remembered.clear()
  remembered.set(out, scrubbed)
  return scrubbed
}
