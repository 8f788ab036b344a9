import { Effect } from "effect"
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

/** SHA-256 of bytes, lower-case hex (receipt files are recognised by it). */
export const sha256HexOfBytes = (bytes: Uint8Array): Effect.Effect<string> =>
  Effect.promise(() => globalThis.crypto.subtle.digest("SHA-256", new Uint8Array(bytes))).pipe(
    Effect.map((digest) => Hex.encode(new Uint8Array(digest)))
  )
