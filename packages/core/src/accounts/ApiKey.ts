import { Effect, Redacted } from "effect"
import { randomToken, sha256Hasher, sha256Hex } from "../Secrets.ts"

/** Every key starts with this prefix, so a leaked key is recognisable (secret scanners) and a typo fails fast. */
export const API_KEY_PREFIX = "rk_"
const API_KEY_SHAPE = /^rk_[A-Za-z0-9_-]{43}$/

/** A new clear API key: `rk_` + base64url of 32 random bytes (43 characters). */
export const generateApiKey: Effect.Effect<Redacted.Redacted<string>> = Effect.map(randomToken(32), (token) =>
  Redacted.make(`${API_KEY_PREFIX}${token}`, { label: "ApiKey" })
)

/** Whether the text has the shape of one of our keys (checked before hashing). */
export const isApiKeyShaped = (key: string): boolean => API_KEY_SHAPE.test(key)

/** What is stored and looked up: SHA-256 hex of the clear key (keys are random, so no salt is needed). */
export const hashApiKey = (key: Redacted.Redacted<string>): Effect.Effect<string> => sha256Hex(Redacted.value(key))

/** `hashApiKey` through the program's `Digest` service when it has one (`sha256Hasher`); the same hash. */
export const apiKeyHasher: Effect.Effect<(key: Redacted.Redacted<string>) => Effect.Effect<string>> = Effect.map(
  sha256Hasher,
  (hash) => (key) => hash(Redacted.value(key))
)
