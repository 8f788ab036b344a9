/**
 * One environment variable: its name, what it means, its default, and how its text becomes a value.
 * A decoding failure is the sentence "expected ..." shown to the operator, never an exception, so a
 * start can report every bad setting at once (see `ReadSettings.ts`).
 */
import { Duration, Option, Redacted, Result } from "effect"

export interface Setting<A> {
  readonly name: string
  /** One line for `.env.example` and the README. */
  readonly meaning: string
  /** The default as written in `.env.example` ("" when unset by default). */
  readonly defaultText: string
  /** Never echoed in a problem report, and scrubbed from every log line (`secretTexts`). */
  readonly secret: boolean
  /** The parts of a secret's text a log must never show; the whole text when absent. */
  readonly secretParts?: (text: string) => ReadonlyArray<string>
  /** The value when the variable is unset or empty. */
  readonly fallback: A
  /** The value of a non-empty text, or what was expected instead. */
  readonly decode: (text: string) => Result.Result<A, string>
}

const make = <A>(setting: Setting<A>): Setting<A> => setting

const ok = Result.succeed
const expected = (what: string) => Result.fail(`expected ${what}`)

export const text = (name: string, fallback: string, meaning: string): Setting<string> =>
  make({ name, meaning, defaultText: fallback, secret: false, fallback, decode: ok })

export const optionalText = (name: string, meaning: string): Setting<Option.Option<string>> =>
  make({ name, meaning, defaultText: "", secret: false, fallback: Option.none(), decode: (t) => ok(Option.some(t)) })

export const secret = (name: string, meaning: string): Setting<Option.Option<Redacted.Redacted<string>>> =>
  make({
    name,
    meaning,
    defaultText: "",
    secret: true,
    fallback: Option.none(),
    decode: (t) => ok(Option.some(Redacted.make(t)))
  })

/** Digits only, then `accepts` on the number; otherwise "expected `what`". */
const wholeNumber = (
  name: string,
  fallback: number,
  meaning: string,
  accepts: (n: number) => boolean,
  what: string
): Setting<number> =>
  make({
    name,
    meaning,
    defaultText: String(fallback),
    secret: false,
    fallback,
    decode: (t) => (/^\d+$/.test(t.trim()) && accepts(Number(t)) ? ok(Number(t)) : expected(what))
  })

export const integer = (name: string, fallback: number, meaning: string, min = 0): Setting<number> =>
  wholeNumber(name, fallback, meaning, (n) => n >= min && Number.isSafeInteger(n), `a whole number of at least ${min}`)

export const port = (name: string, fallback: number, meaning: string): Setting<number> =>
  wholeNumber(name, fallback, meaning, (n) => n <= 65535, "a port number from 0 to 65535")

const TRUE = ["true", "yes", "on", "1"]
const FALSE = ["false", "no", "off", "0"]

export const flag = (name: string, fallback: boolean, meaning: string): Setting<boolean> =>
  make({
    name,
    meaning,
    defaultText: String(fallback),
    secret: false,
    fallback,
    decode: (t) => {
      const v = t.trim().toLowerCase()
      return TRUE.includes(v) ? ok(true) : FALSE.includes(v) ? ok(false) : expected("true or false")
    }
  })

/** Unset means "decided elsewhere" (e.g. `SANDBOX`). */
export const optionalFlag = (name: string, meaning: string): Setting<Option.Option<boolean>> => {
  const inner = flag(name, false, meaning)
  return make({
    ...inner,
    defaultText: "",
    fallback: Option.none(),
    decode: (t) => Result.map(inner.decode(t), Option.some)
  })
}

/** Effect's duration text: "5 seconds", "1500 millis", "2 minutes". */
export const duration = (name: string, fallback: Duration.Input, meaning: string): Setting<Duration.Duration> =>
  make({
    name,
    meaning,
    defaultText: String(fallback),
    secret: false,
    fallback: Duration.fromInputUnsafe(fallback),
    decode: (t) =>
      Option.match(Duration.fromInput(t.trim() as Duration.Input), {
        onNone: () => expected(`a duration such as "5 seconds" or "1500 millis"`),
        onSome: ok
      })
  })

const isUrl = (t: string, protocols: ReadonlyArray<string>): boolean => {
  try {
    return protocols.includes(new URL(t).protocol)
  } catch {
    // not a URL at all
    return false
  }
}

/** An http(s) URL, kept without trailing slashes. */
export const httpUrl = (name: string, fallback: string, meaning: string): Setting<string> =>
  make({
    name,
    meaning,
    defaultText: fallback,
    secret: false,
    fallback,
    decode: (t) =>
      isUrl(t.trim(), ["http:", "https:"]) ? ok(t.trim().replace(/\/+$/, "")) : expected("an http:// or https:// URL")
  })

/** The text and, for a URL with userinfo, its password as written and decoded. */
export const withPassword = (text: string): ReadonlyArray<string> => {
  const password = URL.canParse(text.trim()) ? new URL(text.trim()).password : ""
  return password === "" ? [text] : [text, password, decodeURIComponent(password)]
}

/** A PostgreSQL connection URL (secret: it may carry a password). */
/** A URL that is a secret (it may carry a password, scrubbed on its own too), kept trimmed. */
export const secretUrlWhere = (
  name: string,
  meaning: string,
  accepts: (text: string) => boolean,
  what: string
): Setting<Option.Option<Redacted.Redacted<string>>> =>
  make({
    name,
    meaning,
    defaultText: "",
    secret: true,
    secretParts: withPassword,
    fallback: Option.none(),
    decode: (t) => (accepts(t.trim()) ? ok(Option.some(Redacted.make(t.trim()))) : expected(what))
  })

export const postgresUrl = (name: string, meaning: string): Setting<Option.Option<Redacted.Redacted<string>>> =>
  secretUrlWhere(
    name,
    meaning,
    (t) => isUrl(t, ["postgres:", "postgresql:"]),
    "a URL like postgres://user:password@host:5432/database"
  )

/** One of a few words. */
export const oneOf = <const W extends string>(
  name: string,
  words: ReadonlyArray<W>,
  meaning: string
): Setting<Option.Option<W>> =>
  make({
    name,
    meaning,
    defaultText: "",
    secret: false,
    fallback: Option.none(),
    decode: (t) => {
      const word = words.find((w) => w === t.trim().toLowerCase())
      return word === undefined ? expected(`one of ${words.join(", ")}`) : ok(Option.some(word))
    }
  })

/** Comma-separated names. */
export const names = (name: string, fallback: ReadonlyArray<string>, meaning: string): Setting<ReadonlyArray<string>> =>
  make({
    name,
    meaning,
    defaultText: fallback.join(","),
    secret: false,
    fallback,
    decode: (t) => {
      const list = t
        .split(",")
        .map((s) => s.trim())
        .filter((s) => s.length > 0)
      return list.every((n) => /^[A-Za-z0-9_]+$/.test(n))
        ? ok(list)
        : expected("comma-separated names of letters, digits and _")
    }
  })

/** Comma-separated Telegram chat ids. */
export const chatIds = (name: string, meaning: string): Setting<ReadonlyArray<number>> =>
  make({
    name,
    meaning,
    defaultText: "",
    secret: false,
    fallback: [],
    decode: (t) => {
      const list = t
        .split(",")
        .map((s) => s.trim())
        .filter((s) => s.length > 0)
      return list.every((n) => /^-?\d+$/.test(n) && Number.isSafeInteger(Number(n)) && Number(n) !== 0)
        ? ok(list.map(Number))
        : expected("comma-separated Telegram chat ids (whole numbers)")
    }
  })

/** A whole number that may be left unset. */
export const optionalInteger = (name: string, meaning: string): Setting<Option.Option<number>> => {
  const inner = integer(name, 0, meaning, 1)
  return make({
    ...inner,
    defaultText: "",
    fallback: Option.none(),
    decode: (t) => Result.map(inner.decode(t), Option.some)
  })
}

export const optionalPort = (name: string, meaning: string): Setting<Option.Option<number>> => {
  const inner = port(name, 0, meaning)
  return make({
    ...inner,
    defaultText: "",
    fallback: Option.none(),
    decode: (t) => Result.map(inner.decode(t), Option.some)
  })
}

/** An http(s) URL that may be left unset (the mode then decides). */
export const optionalUrl = (name: string, meaning: string, defaultText = ""): Setting<Option.Option<string>> => {
  const inner = httpUrl(name, "", meaning)
  return make({
    ...inner,
    defaultText,
    fallback: Option.none(),
    decode: (t) => Result.map(inner.decode(t), Option.some)
  })
}

/** A Cookie header (secret) that must name every cookie of `required`; only names are ever reported. */
export const cookieHeader = (
  name: string,
  required: ReadonlyArray<string>,
  meaning: string
): Setting<Option.Option<Redacted.Redacted<string>>> =>
  make({
    name,
    meaning,
    defaultText: "",
    secret: true,
    fallback: Option.none(),
    decode: (t) => {
      const present = new Set(t.split(";").map((part) => part.split("=")[0]?.trim() ?? ""))
      const missing = required.filter((cookie) => !present.has(cookie))
      return missing.length === 0
        ? ok(Option.some(Redacted.make(t.trim())))
        : expected(`a Cookie header with ${required.join(", ")} (missing: ${missing.join(", ")})`)
    }
  })
