/**
 * The service's hot wallet: the phrase it pays Fragment from. Configured (`HOT_WALLET_MNEMONIC`), or
 * in sandbox mode a fixed sandbox-only BIP39 phrase derived from a public label (so every restart
 * and every worker of one sandbox chain pays from the same wallet) that the sandbox faucet tops up.
 */
import { SandboxFaucet } from "@resale/ton/SandboxFaucet.ts"
import { deriveKeys } from "@resale/ton/Mnemonic.ts"
import { networkGlobalIdOf } from "@resale/ton/PayerAccount.ts"
import { walletContract } from "@resale/ton/WalletContracts.ts"
import { Blockchain, type BlockchainError, type Nanoton, type Wallet } from "@resale/core/ports/Blockchain.ts"
import { entropyToMnemonic } from "@scure/bip39"
import { wordlist } from "@scure/bip39/wordlists/english.js"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { createHash, createHmac } from "node:crypto"
import { WorkerConfig } from "../WorkerConfig.ts"

const TON = 1_000_000_000n
/** Sandbox: top the wallet up to this when it falls below the low mark. */
const SANDBOX_FUNDING = 1_000_000n * TON
const SANDBOX_LOW = 10_000n * TON

/** The public, sandbox-only phrase: never holds real money (a sandbox chain has none). */
export const sandboxHotWalletPhrase = (): Redacted.Redacted<string> =>
  Redacted.make(
    entropyToMnemonic(createHash("sha256").update("resale sandbox hot wallet").digest().subarray(0, 16), wordlist),
    { label: "sandbox hot wallet" }
  )

export class HotWallet extends Context.Service<HotWallet, {
  readonly phrase: Redacted.Redacted<string>
  /**
   * The direct-purchase order id of an order's charge: stable across attempts and restarts, and
   * unguessable (an HMAC keyed by the phrase), so no direct-surface caller can claim it first.
   */
  readonly orderKey: (orderId: number, chargeSeq: number) => string
  /**
   * The wallet itself, its keys derived from the phrase once (the first time the chain shows it
   * funded) and kept in memory only, inside the Wallet's Redacted; every purchase reuses it.
   */
  readonly wallet: Effect.Effect<Wallet, BlockchainError>
  /** Sandbox: makes sure the faucet has funded the wallet; elsewhere nothing. */
  readonly ensureFunded: Effect.Effect<void>
}>()("worker/fulfilment/HotWallet") {
  static readonly layer = Layer.effect(
    HotWallet,
    Effect.gen(function*() {
      const settings = yield* WorkerConfig
      const chain = yield* Blockchain
      // Funded from the sandbox faucet in sandbox mode only (an outside chain's faucet stub just fails).
      const sandbox = settings.sandbox ? yield* Effect.serviceOption(SandboxFaucet) : Option.none()
      const phrase = Option.isSome(settings.hotWalletMnemonic)
        ? settings.hotWalletMnemonic.value
        : settings.sandbox
        ? sandboxHotWalletPhrase()
        : yield* Effect.die(new Error("HOT_WALLET_MNEMONIC is required outside sandbox mode"))

      const orderKey = (orderId: number, chargeSeq: number) => {
        const tag = createHmac("sha256", Redacted.value(phrase)).update(`resale-order|${orderId}|${chargeSeq}`).digest("hex")
        return `hw-${orderId}-${chargeSeq}-${tag.slice(0, 20)}`
      }

      // The contract that pays: the configured one, else the phrase's funded one (the sandbox funds v5r1).
      const version = Option.getOrUndefined(settings.hotWalletVersion)
      // The addresses the faucet funds: the phrase's wallet of that version for each key kind it validates as.
      const addresses = Option.isNone(sandbox) ? [] : yield* deriveKeys(phrase).pipe(
        Effect.map((keys) =>
          keys.map((k) =>
            walletContract(version ?? "v5r1", k.key.publicKey, networkGlobalIdOf(chain.network)).address.toString({ bounceable: false })
          )
        ),
        Effect.orDie
      )

      const ensureFunded = Option.match(sandbox, {
        onNone: () => Effect.void,
        onSome: (faucet) =>
          Effect.forEach(addresses.slice(0, 1), (address) =>
            Effect.gen(function*() {
              const balance = yield* chain.balance(address)
              if (balance < SANDBOX_LOW) yield* faucet.fund(address, SANDBOX_FUNDING as Nanoton)
            }), { discard: true }).pipe(
              Effect.catch((e) => Effect.logWarning("sandbox hot wallet funding failed", e.message))
            )
      })

      // Resolved once: a failure (not funded yet, node down) is not kept, so the next order tries again.
      let resolved: Wallet | undefined
      let warnedEmpty = false
      const wallet = Effect.suspend(() =>
        resolved !== undefined
          ? Effect.succeed(resolved)
          : chain.resolveWallet(phrase, version === undefined ? undefined : { version }).pipe(
            Effect.tap((w) =>
              Effect.andThen(
                Effect.sync(() => void (resolved = w)),
                // Where operators fund it: the address is logged once, at the first payment.
                Effect.logInfo(`hot wallet ${w.version} ${w.address}: ${Number(w.balance) / 1e9} TON`)
              )
            ),
            // Only an operator can fund it outside sandbox; the sandbox funds it before its first payment.
            Effect.tapError((e) =>
              warnedEmpty || Option.isSome(sandbox) || e.reason !== "WalletNotFound"
                ? Effect.void
                : Effect.andThen(
                  Effect.sync(() => void (warnedEmpty = true)),
                  Effect.logWarning(`hot wallet not funded yet: send TON to ${(e.addresses ?? []).filter((a) => version === undefined || a.version === version).map((a) => `${a.address} (${a.version})`).join(" or ")}`)
                )
            )
          )
      )

      return HotWallet.of({ phrase, orderKey, wallet, ensureFunded })
    })
  )
}
