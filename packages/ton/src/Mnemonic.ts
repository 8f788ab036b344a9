/**
 * Mnemonic phrases to ed25519 key pairs, the way the wallets people use do it.
 * - TON-native (24 or 12 words): `mnemonicValidate` first, because `mnemonicToPrivateKey` derives a
 *   key from any garbage.
 * - BIP39 (Tonkeeper, MyTonWallet): checksum via @scure/bip39, seed = PBKDF2-SHA512("mnemonic", 2048),
 *   SLIP-0010 ed25519 on m/44'/607'/0'.
 * A phrase can pass more than one check by chance, so every kind that validates is returned and the
 * resolver looks all of them up on chain. Errors never contain the phrase or any word of it.
 */
import { deriveEd25519Path, keyPairFromSeed, mnemonicToPrivateKey, mnemonicValidate, pbkdf2_sha512 } from "@ton/crypto"
import { BlockchainError, type MnemonicKind, type WalletKey } from "@resale/core/ports/Blockchain.ts"
import { validateMnemonic } from "@scure/bip39"
import { wordlist } from "@scure/bip39/wordlists/english.js"
import { Effect, Metric, Redacted } from "effect"

export interface DerivedKey {
  readonly kind: MnemonicKind
  readonly key: WalletKey
}

export const WORD_COUNTS: ReadonlyArray<number> = [12, 24]
const BIP39_PATH = [44, 607, 0]
const known = new Set(wordlist)

const invalid = (message: string) => new BlockchainError({ reason: "InvalidMnemonic", message })

/** Splits a phrase the way users paste it: any whitespace, any case, commas tolerated. */
export const phraseWords = (phrase: Redacted.Redacted<string>): ReadonlyArray<string> =>
  Redacted.value(phrase)
    .normalize("NFKD")
    .toLowerCase()
    .split(/[\s,]+/)
    .filter((w) => w.length > 0)

const tonKey = (words: ReadonlyArray<string>) =>
  Effect.promise(async (): Promise<DerivedKey | undefined> => {
    if (!(await mnemonicValidate([...words]))) return undefined
    const kp = await mnemonicToPrivateKey([...words])
    return { kind: "ton", key: { publicKey: kp.publicKey, secretKey: kp.secretKey } }
  })

const bip39Key = (words: ReadonlyArray<string>) =>
  Effect.promise(async (): Promise<DerivedKey | undefined> => {
    const phrase = words.join(" ")
    if (!validateMnemonic(phrase, wordlist)) return undefined
    const seed = await pbkdf2_sha512(phrase, "mnemonic", 2048, 64)
    const kp = keyPairFromSeed(await deriveEd25519Path(seed, BIP39_PATH))
    return { kind: "bip39", key: { publicKey: kp.publicKey, secretKey: kp.secretKey } }
  })

const derivationsInProgress = Metric.gauge("resale_key_derivations_in_progress", {
  description: "Mnemonic key derivations running now (each ~0.1 s of CPU; a queue shows here first)"
})

/**
 * Every key the phrase can stand for: TON-native first, then BIP39. Fails `InvalidMnemonic` when the
 * word count is not 12 or 24, a word is not in the list, or no checksum matches.
 */
export const deriveKeys = Effect.fn("Mnemonic.deriveKeys")(
  function* (phrase: Redacted.Redacted<string>) {
    const words = phraseWords(phrase)
    if (!WORD_COUNTS.includes(words.length)) {
      return yield* invalid(`The mnemonic phrase must have 12 or 24 words, got ${words.length}`)
    }
    const unknown = words.filter((w) => !known.has(w)).length
    if (unknown > 0) {
      return yield* invalid(`The mnemonic phrase has ${unknown} word(s) outside the BIP39/TON word list`)
    }
    const candidates = yield* Effect.all([tonKey(words), bip39Key(words)]).pipe(
      Effect.catchDefect(() => Effect.fail(invalid("The mnemonic phrase could not be read")))
    )
    const keys = candidates.filter((k): k is DerivedKey => k !== undefined)
    if (keys.length === 0) {
      return yield* invalid("The mnemonic phrase is not a valid TON or BIP39 phrase (checksum mismatch)")
    }
    return keys
  },
  (derive) =>
    // Each derivation costs ~0.1 s of CPU: how many run at once shows in /metrics.
    Effect.acquireUseRelease(
      Metric.modify(derivationsInProgress, 1),
      () => derive,
      () => Metric.modify(derivationsInProgress, -1)
    )
)
