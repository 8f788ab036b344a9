/**
 * Test wallets: phrases are generated per run (never committed), except the public BIP39 test vector
 * whose addresses are known from independent wallets.
 */
import type { MnemonicKind, Nanoton, WalletVersion } from "@resale/core/ports/Blockchain.ts"
import { generateMnemonic } from "@scure/bip39"
import { wordlist } from "@scure/bip39/wordlists/english.js"
import { mnemonicNew, mnemonicValidate } from "@ton/crypto"
import { Address } from "@ton/ton"
import { randomBytes } from "node:crypto"
import { Effect, Redacted } from "effect"
import { TestClock } from "effect/testing"
import { deriveKeys } from "../../src/Mnemonic.ts"
import { walletContract } from "../../src/WalletContracts.ts"

/** The public BIP39 vector; its addresses below were cross-checked against other wallet code. */
export const BIP39_VECTOR = Redacted.make(
  "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about"
)
export const BIP39_VECTOR_V4R2 = "UQAzWZa6nM5mJev91wGc7VCSfBoIsYRqKJpV78N8Add9-RKY"
export const BIP39_VECTOR_V5R1 = "UQBHyu-oZVDHRYQ1-rKlGqpHy5yAqanPBirEQNMNOmfHLtaT"

export const ton24 = Effect.map(
  Effect.promise(() => mnemonicNew(24)),
  (w) => Redacted.make(w.join(" "))
)
export const ton12 = Effect.map(
  Effect.promise(() => mnemonicNew(12)),
  (w) => Redacted.make(w.join(" "))
)
/** A random 12-word BIP39 phrase that is not also a TON-native one (1 in 256 would be). */
export const bip39Words12: Effect.Effect<Redacted.Redacted<string>> = Effect.gen(function* () {
  const words = generateMnemonic(wordlist, 128)
  return (yield* Effect.promise(() => mnemonicValidate(words.split(" ")))) ? yield* bip39Words12 : Redacted.make(words)
})

/** The wallet address of a phrase for one kind of derivation, non-bounceable, mainnet ids. */
export const walletAddress = (phrase: Redacted.Redacted<string>, version: WalletVersion, kind: MnemonicKind) =>
  Effect.map(Effect.orDie(deriveKeys(phrase)), (keys) => {
    const key = keys.find((k) => k.kind === kind)
    if (key === undefined) throw new Error(`phrase is not of kind ${kind}`)
    return walletContract(version, key.key.publicKey, -239).address.toString({ bounceable: false, urlSafe: true })
  })

/** A never-used address in the form asked for. */
export const freshAddress = (bounceable: boolean) =>
  new Address(0, randomBytes(32)).toString({ bounceable, urlSafe: true })

export const ton = (n: number | bigint): Nanoton => (BigInt(n) * 1_000_000_000n) as Nanoton
export const milliTon = (n: number | bigint): Nanoton => (BigInt(n) * 1_000_000n) as Nanoton

/** it.effect runs on a TestClock at 0; the emulator signs against real time, so start there. */
export const atRealTime = Effect.suspend(() => TestClock.setTime(Date.now()))
