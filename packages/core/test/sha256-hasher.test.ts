import { NodeCrypto } from "@effect/platform-node"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { apiKeyHasher, hashApiKey } from "../src/accounts/ApiKey.ts"
import { sha256Hasher, sha256Hex } from "../src/Secrets.ts"

// SHA-256("abc"), FIPS 180-2 test vector.
const ABC = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"

describe("sha256Hasher", () => {
  it.effect("hashes the same with node:crypto's Digest as with Web Crypto (stored API-key hashes keep matching)", () =>
    Effect.gen(function* () {
      const web = yield* sha256Hasher
      const node = yield* Effect.provide(sha256Hasher, NodeCrypto.layerDigest)
      assert.strictEqual(yield* web("abc"), ABC)
      assert.strictEqual(yield* node("abc"), ABC)
      assert.strictEqual(yield* node("Ünïcödé ключ"), yield* sha256Hex("Ünïcödé ключ"))
      const key = Redacted.make("rk_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG")
      const nodeKey = yield* Effect.provide(apiKeyHasher, NodeCrypto.layerDigest)
      assert.strictEqual(yield* nodeKey(key), yield* hashApiKey(key))
    })
  )
})
