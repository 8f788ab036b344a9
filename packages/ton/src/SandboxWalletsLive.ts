/**
 * `SandboxWallets` on the sandbox chain: a v5r1 wallet per name, its key the HMAC of the name under a
 * random secret of this process (so nothing is stored, and a restarted server cannot sign for the
 * names it handed out before: their quotes expire unpaid), funded by the sandbox faucet. It signs a
 * TON Connect request as a wallet app does (pay fees separately, ignore errors, valid until the
 * request's `validUntil`) and broadcasts it.
 */
import { Blockchain, BlockchainError, type Nanoton } from "@resale/core/ports/Blockchain.ts"
import { SandboxWallets, type WalletTransaction } from "@resale/core/ports/SandboxWallets.ts"
import { keyPairFromSeed } from "@ton/crypto"
import { Address, Cell } from "@ton/ton"
import { Effect, Layer } from "effect"
import { createHmac, randomBytes } from "node:crypto"
import { contractAccount, networkGlobalIdOf } from "./PayerAccount.ts"
import { SandboxFaucet } from "./SandboxFaucet.ts"
import { signedExternal, walletContract } from "./WalletContracts.ts"

const sandboxOnly = new BlockchainError({
  reason: "NetworkError",
  message: "Sandbox wallets exist in sandbox mode only"
})

export const SandboxWalletsLive: Layer.Layer<SandboxWallets, never, Blockchain | SandboxFaucet> = Layer.effect(
  SandboxWallets,
  Effect.gen(function* () {
    const chain = yield* Blockchain
    const faucet = yield* SandboxFaucet
    const secret = randomBytes(32)
    const networkGlobalId = networkGlobalIdOf(chain.network)
    const walletOf = (name: string) => {
      const key = keyPairFromSeed(createHmac("sha256", secret).update(`sandbox-wallet:${name}`).digest())
      return { key, contract: walletContract("v5r1", key.publicKey, networkGlobalId) }
    }
    const sandbox = <A>(effect: Effect.Effect<A, BlockchainError>) =>
      chain.network === "sandbox" ? effect : Effect.fail(sandboxOnly)

    const open = (name: string, funds: Nanoton) =>
      sandbox(
        Effect.gen(function* () {
          const { key, contract } = walletOf(name)
          const account = contractAccount(contract, key.publicKey)
          const state = yield* chain.accountState(account.address)
          if (state.balance < funds) yield* faucet.fund(contract.address.toString({ bounceable: false }), funds)
          return account
        })
      )

    const pay = (name: string, request: WalletTransaction) =>
      sandbox(
        Effect.gen(function* () {
          const { key, contract } = walletOf(name)
          const state = yield* chain.accountState(contract.address.toRawString())
          const messages = request.messages.map((m) => ({
            to: Address.parse(m.address),
            value: BigInt(m.amount),
            bounce: Address.isFriendly(m.address) ? Address.parseFriendly(m.address).isBounceable : true,
            body: Cell.fromBase64(m.payload)
          }))
          const cell = yield* signedExternal({
            contract,
            key,
            seqno: state.seqno,
            validUntil: request.validUntil,
            deploy: state.status !== "active",
            messages
          })
          const boc = cell.toBoc().toString("base64")
          yield* chain.send({ boc })
          return boc
        })
      )

    return SandboxWallets.of({ open, pay })
  })
)
