import { Effect, Option } from "effect"
import { Digest } from "effect/crypto"
import { Base64Url, Hex } from "effect/encoding"

// Web Crypto (globalThis.crypto): cryptographically secure, no Node import, so core stays pure.

/** `n` cryptographically random bytes. */
export const randomBytes = (n: number): Effect.Effect<Uint8Array> =>
  Effect.sync(() => globalThis.crypto.getRandomValues(new Uint8Array(n)))

/** A random token: base64url of `n` random bytes, without padding. */
export const randomToken = (n: number): Effect.Effect<string> => Effect.map(randomBytes(n), Base64Url.encode)

/** SHA-256 of the UTF-8 text, lower-case hex. */
export const sha256Hex = (text: string): Effect.Effect<string> =>
  Effect.promise(() => globalThis.crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))).pipe(
    Effect.map((digest) => Hex.encode(new Uint8Array(digest)))
  )

const utf8 = new TextEncoder()

/**
 * `sha256Hex` through the program's `Digest` service when one is provided (the server gives effect's
 * `node:crypto` one: a synchronous hash, where Web Crypto's promise costs a tenth of a request on the
 * API-key routes), else `sha256Hex`. Taken once where a use case is built; the hash is the same.
 */
export const sha256Hasher: Effect.Effect<(text: string) => Effect.Effect<string>> = Effect.map(
  Effect.serviceOption(Digest.Digest),
  Option.match({
    onNone: () => sha256Hex,
    onSome: (digest) => (text: string) => digest.digestHex(Digest.sha256, utf8.encode(text))
  })
)

/** SHA-256 of bytes, lower-case hex (receipt files are recognised by it). */
export const sha256HexOfBytes = (bytes: Uint8Array): Effect.Effect<string> =>
  Effect.promise(() => globalThis.crypto.subtle.digest("SHA-256", new Uint8Array(bytes))).pipe(
    Effect.map((digest) => Hex.encode(new Uint8Array(digest)))
  )
