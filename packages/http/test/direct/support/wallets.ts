/**
 * Test wallets on the sandbox chain. Phrases are generated per run, never written down; the tests
 * hold them in memory only, as a caller would.
 */
import type { Nanoton, WalletVersion } from "@resale/core/ports/Blockchain.ts"
import { parseNanotonNumber } from "@resale/core/money/Nanoton.ts"
import { deriveKeys } from "@resale/ton/Mnemonic.ts"
import { walletContract } from "@resale/ton/WalletContracts.ts"
import { generateMnemonic, validateMnemonic } from "@scure/bip39"
import { wordlist } from "@scure/bip39/wordlists/english.js"
import { mnemonicNew, mnemonicValidate } from "@ton/crypto"
import { Address, type Transaction } from "@ton/ton"
import { Effect, Option, Redacted } from "effect"
import { randomBytes, randomInt } from "node:crypto"
import type { DirectEnv } from "./DirectTestServer.ts"

export type PhraseKind = "ton24" | "bip12"

export const newPhrase = (kind: PhraseKind): Effect.Effect<string> =>
  kind === "ton24"
    ? Effect.map(
        Effect.promise(() => mnemonicNew(24)),
        (w) => w.join(" ")
      )
    : Effect.gen(function* () {
        // A 12-word BIP39 phrase that is not also a TON-native one (1 in 256 would be).
        while (true) {
          const words = generateMnemonic(wordlist, 128)
          if (!(yield* Effect.promise(() => mnemonicValidate(words.split(" "))))) return words
        }
      })

/**
 * Words of the list that are neither a TON nor a BIP39 phrase (a random pick passes a checksum about
 * once in 128 tries, and a valid phrase with empty wallets answers INSUFFICIENT_FUNDS, not WALLET_VM_ERROR).
 */
export const invalidPhrase = (count: 12 | 24): Effect.Effect<string> =>
  Effect.gen(function* () {
    while (true) {
      const words = Array.from({ length: count }, () => wordlist[randomInt(wordlist.length)]!)
      const phrase = words.join(" ")
      if (validateMnemonic(phrase, wordlist)) continue
      if (!(yield* Effect.promise(() => mnemonicValidate(words)))) return phrase
    }
  })

/** The wallet address of a phrase for a version (the phrase's own derivation kind). */
export const addressOf = (phrase: string, version: WalletVersion) =>
  Effect.map(Effect.orDie(deriveKeys(Redacted.make(phrase))), (keys) => {
    const key = keys[0]!.key
    return walletContract(version, key.publicKey, -239).address.toString({ bounceable: false, urlSafe: true })
  })

export const ton = (n: number | string): Nanoton => {
  const r = parseNanotonNumber(Number(n))
  if (typeof r !== "bigint") throw new Error("bad amount")
  return r
}

/** A JSON number of TON from an answer, exactly in nanoton. */
export const nano = (n: unknown): bigint => {
  if (typeof n !== "number") throw new Error(`not a number: ${String(n)}`)
  const r = parseNanotonNumber(n)
  if (typeof r !== "bigint") throw new Error("bad amount")
  return r
}

export const balanceOf = (env: DirectEnv, address: string) =>
  Effect.promise(async () => (await env.emulator.getContract(Address.parse(address))).balance)

/** A funded wallet (left uninitialised: it deploys on its first send). */
export const fundedWallet = (env: DirectEnv, kind: PhraseKind, version: WalletVersion, amount: Nanoton) =>
  Effect.gen(function* () {
    const phrase = yield* newPhrase(kind)
    const address = yield* addressOf(phrase, version)
    yield* env.sandbox.fund(address, amount)
    return { phrase, address }
  })

/** Incoming internal transfers of an address, oldest first. */
export const incoming = (env: DirectEnv, address: string) =>
  Effect.promise(async () => {
    const txs = await env.emulator.getTransactions(Address.parse(address))
    return txs
      .filter((tx) => tx.inMessage?.info.type === "internal")
      .toSorted((a, b) => (a.lt < b.lt ? -1 : 1)) as ReadonlyArray<Transaction>
  })

export const freshAddress = (bounceable = false) =>
  new Address(0, randomBytes(32)).toString({ bounceable, urlSafe: true })

/** A unique order id per test. */
export const orderId = (label: string) => `${label}-${randomBytes(5).toString("hex")}`

/** The newest record under an order id (test ids are unique per run, so it is the test's own). */
export const latestRecord = (env: DirectEnv, id: string) =>
  Effect.map(env.service.findByOrderId(id), (records) => Option.fromNullishOr(records[0]))
