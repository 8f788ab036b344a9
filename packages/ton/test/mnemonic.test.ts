import { BlockchainError, Nanoton, Wallet } from "@resale/core/ports/Blockchain.ts"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Redacted, Result } from "effect"
import { inspect } from "node:util"
import { deriveKeys, phraseWords } from "../src/Mnemonic.ts"
import { walletContract } from "../src/WalletContracts.ts"
import { BIP39_VECTOR, BIP39_VECTOR_V4R2, BIP39_VECTOR_V5R1, bip39Words12, ton12, ton24 } from "./support/wallets.ts"

const friendly = (version: "v4r2" | "v5r1", publicKey: Uint8Array) =>
  walletContract(version, publicKey, -239).address.toString({ bounceable: false, urlSafe: true })

/** Every way the phrase or the key could surface when an object is printed, logged or serialised. */
const renderings = (value: unknown): ReadonlyArray<string> => [
  String(value),
  JSON.stringify(value) ?? "",
  inspect(value, { depth: 10, showHidden: true }),
  value instanceof Error ? `${value.message}\n${value.stack ?? ""}` : ""
]

/** No two consecutive words of the phrase, and no key material, in any rendering. */
const assertNoLeak = (value: unknown, phrase: Redacted.Redacted<string>, secretKey?: Uint8Array) => {
  const words = phraseWords(phrase)
  const pairs = words.slice(1).map((w, i) => `${words[i]} ${w}`)
  for (const text of renderings(value)) {
    for (const pair of pairs) assert.notInclude(text, pair)
    if (secretKey !== undefined) {
      assert.notInclude(text, Buffer.from(secretKey).toString("hex"))
      assert.notInclude(text, Buffer.from(secretKey).toString("base64"))
    }
  }
}

describe("Mnemonic", () => {
  it.effect("a 24-word TON phrase is of kind ton", () =>
    Effect.gen(function* () {
      const keys = yield* deriveKeys(yield* ton24)
      assert.include(
        keys.map((k) => k.kind),
        "ton"
      )
      assert.strictEqual(keys[0]!.key.secretKey.length, 64)
    })
  )

  it.effect("a 12-word TON-native phrase is of kind ton too", () =>
    Effect.gen(function* () {
      assert.include(
        (yield* deriveKeys(yield* ton12)).map((k) => k.kind),
        "ton"
      )
    })
  )

  it.effect("the BIP39 test vector derives m/44'/607'/0' to the addresses other wallets show", () =>
    Effect.gen(function* () {
      const keys = yield* deriveKeys(BIP39_VECTOR)
      assert.deepStrictEqual(
        keys.map((k) => k.kind),
        ["bip39"]
      )
      const key = keys[0]!.key
      assert.strictEqual(
        Buffer.from(key.publicKey).toString("hex"),
        "7952e94118f34607c75e23258dd9220d66ccac5a3ee074125c25068e8107bfbf"
      )
      assert.strictEqual(friendly("v4r2", key.publicKey), BIP39_VECTOR_V4R2)
      assert.strictEqual(friendly("v5r1", key.publicKey), BIP39_VECTOR_V5R1)
    })
  )

  it.effect("pasted with capitals, commas and extra spaces it is the same phrase", () =>
    Effect.gen(function* () {
      const messy = Redacted.make(`  ${Redacted.value(BIP39_VECTOR).toUpperCase().split(" ").join(",  ")}\n`)
      const [a, b] = [yield* deriveKeys(messy), yield* deriveKeys(BIP39_VECTOR)]
      assert.deepStrictEqual(a[0]!.key.publicKey, b[0]!.key.publicKey)
    })
  )

  it.effect("garbage, wrong length and a bad checksum are InvalidMnemonic (never derived anyway)", () =>
    Effect.gen(function* () {
      const cases = [
        "foo bar baz qux quux corge grault garply waldo fred plugh xyzzy",
        Array(11).fill("abandon").join(" "),
        Array(12).fill("abandon").join(" "),
        Array(24).fill("zoo").join(" "),
        ""
      ]
      for (const text of cases) {
        const error = yield* Effect.flip(deriveKeys(Redacted.make(text)))
        assert.instanceOf(error, BlockchainError)
        assert.strictEqual(error.reason, "InvalidMnemonic")
      }
    })
  )

  it.effect("the phrase never appears in an error, and a wallet never shows its key", () =>
    Effect.gen(function* () {
      const phrase = yield* bip39Words12
      const words = phraseWords(phrase)
      // A 12-word phrase has 4 checksum bits: one last word in 16 still checks out, so pick one that does not.
      let brokenChecksum: Array<string> = []
      for (const candidate of ["zoo", "abandon", "ability", "able", "about", "above", "absent", "absorb"]) {
        const attempt = [...words.slice(0, 11), candidate]
        const derived = yield* Effect.result(deriveKeys(Redacted.make(attempt.join(" "))))
        if (candidate !== words[11] && Result.isFailure(derived)) {
          brokenChecksum = attempt
          break
        }
      }
      const variants = [
        brokenChecksum,
        [...words, "abandon"], // 13 words
        [...words.slice(0, 11), "notaword"] // typo
      ]
      for (const variant of variants) {
        const error = yield* Effect.flip(deriveKeys(Redacted.make(variant.join(" "))))
        assert.strictEqual(error.reason, "InvalidMnemonic")
        assertNoLeak(error, phrase)
      }
      const [derived] = yield* deriveKeys(phrase)
      const wallet = new Wallet({
        address: friendly("v5r1", derived!.key.publicKey),
        version: "v5r1",
        kind: derived!.kind,
        status: "active",
        balance: Nanoton.make(1n),
        key: derived!.key
      })
      assertNoLeak(wallet, phrase, derived!.key.secretKey)
      assertNoLeak({ nested: { wallet } }, phrase, derived!.key.secretKey)
      assert.deepStrictEqual(Wallet.key(wallet).secretKey, derived!.key.secretKey)
      assertNoLeak(phrase, phrase) // the Redacted phrase itself prints as <redacted>
    })
  )
})
