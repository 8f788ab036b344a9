/**
 * The HotWallet port over the Blockchain port: the phrase the service pays Fragment from, configured
 * (`HOT_WALLET_MNEMONIC`) or, in sandbox mode, a fixed sandbox-only BIP39 phrase derived from a
 * public label (so every restart and every process of one sandbox chain pays from the same wallet)
 * that the sandbox faucet tops up. The wallet is resolved once and kept in memory only.
 */
import { Nanoton } from "@resale/core/money/Nanoton.ts"
import { Blockchain, BlockchainError, type Wallet, type WalletVersion } from "@resale/core/ports/Blockchain.ts"
import { HotWallet } from "@resale/core/ports/HotWallet.ts"
import { entropyToMnemonic } from "@scure/bip39"
import { wordlist } from "@scure/bip39/wordlists/english.js"
import { Effect, Layer, Option, Redacted } from "effect"
import { createHash, createHmac } from "node:crypto"
import { deriveKeys } from "./Mnemonic.ts"
import { networkGlobalIdOf } from "./PayerAccount.ts"
import { SandboxFaucet } from "./SandboxFaucet.ts"
import { walletContract } from "./WalletContracts.ts"

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

export interface HotWalletSettings {
  /** `HOT_WALLET_MNEMONIC`; None: the sandbox phrase in sandbox mode, a defect elsewhere. */
  readonly phrase: Option.Option<Redacted.Redacted<string>>
  /** `HOT_WALLET_VERSION`: the contract that pays; None: the phrase's funded one (the sandbox funds v5r1). */
  readonly version: Option.Option<WalletVersion>
  readonly sandbox: boolean
}

/** Needs Blockchain and, in sandbox mode, optionally SandboxFaucet (the wallet's funding). */
export const TonHotWallet = {
  layerWith: (settings: HotWalletSettings) =>
    Layer.effect(
      HotWallet,
      Effect.gen(function* () {
        const chain = yield* Blockchain
        // Funded from the sandbox faucet in sandbox mode only (an outside chain's faucet stub just fails).
        const sandbox = settings.sandbox ? yield* Effect.serviceOption(SandboxFaucet) : Option.none()
        const phrase = Option.isSome(settings.phrase)
          ? settings.phrase.value
          : settings.sandbox
            ? sandboxHotWalletPhrase()
            : yield* Effect.die(new Error("HOT_WALLET_MNEMONIC is required outside sandbox mode"))
        const version = Option.getOrUndefined(settings.version)

        const orderKey = (orderId: number, chargeSeq: number) => {
          const tag = createHmac("sha256", Redacted.value(phrase))
            .update(`resale-order|${orderId}|${chargeSeq}`)
            .digest("hex")
          return `hw-${orderId}-${chargeSeq}-${tag.slice(0, 20)}`
        }

        // The address the faucet funds: the phrase's wallet of that version for its first key kind.
        const funded = Option.isNone(sandbox)
          ? []
          : yield* deriveKeys(phrase).pipe(
              Effect.map((keys) =>
                keys
                  .slice(0, 1)
                  .map((k) =>
                    walletContract(
                      version ?? "v5r1",
                      k.key.publicKey,
                      networkGlobalIdOf(chain.network)
                    ).address.toString({ bounceable: false })
                  )
              ),
              Effect.orDie
            )

        const ensureFunded = Option.match(sandbox, {
          onNone: () => Effect.void,
          onSome: (faucet) =>
            Effect.forEach(
              funded,
              (address) =>
                Effect.gen(function* () {
                  const balance = yield* chain.balance(address)
                  if (balance < SANDBOX_LOW) yield* faucet.fund(address, Nanoton.make(SANDBOX_FUNDING))
                }),
              { discard: true }
            ).pipe(Effect.catch((e) => Effect.logWarning("sandbox hot wallet funding failed", e.message)))
        })

        // Resolved once: a failure (not funded yet, node down) is not kept, so the next order tries again.
        let resolved: Wallet | undefined
        let warnedEmpty = false
        const wallet = Effect.suspend(() =>
          resolved !== undefined
            ? Effect.succeed(resolved)
            : chain.resolveWallet(phrase, version === undefined ? undefined : { version }).pipe(
                // Where to fund it: the configured contract's address only (the lookup also names the others).
                Effect.mapError((e) =>
                  e.reason === "WalletNotFound" && version !== undefined && e.addresses !== undefined
                    ? new BlockchainError({
                        reason: e.reason,
                        message: e.message,
                        addresses: e.addresses.filter((a) => a.version === version)
                      })
                    : e
                ),
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
                        Effect.logWarning(
                          `hot wallet not funded yet: send TON to ${(e.addresses ?? []).map((a) => `${a.address} (${a.version})`).join(" or ")}`
                        )
                      )
                )
              )
        )

        return HotWallet.of({ wallet, orderKey, ensureFunded })
      })
    )
}
