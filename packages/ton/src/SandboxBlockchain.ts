/**
 * Sandbox mode: the Blockchain port over the real TON VM of @ton/sandbox, in process. Adds a faucet
 * (sandbox coins for any address) and keeps the emulator state in a file, so sandbox wallets and
 * balances survive a restart. Uses mainnet's network id, as the emulator's config does.
 */
import { Blockchain, BlockchainError, type Nanoton } from "@resale/core/ports/Blockchain.ts"
import { Blockchain as Emulator, EmulationError } from "@ton/sandbox"
import { Address, Cell, SendMode, toNano } from "@ton/ton"
import { Context, Duration, Effect, Layer, Semaphore } from "effect"
import { join } from "node:path"
import { type ChainClient, rejectionText } from "./ChainClient.ts"
import { immediateBlocks, makeSandboxBlocks, type SandboxBlocks } from "./SandboxBlocks.ts"
import { type DropRule, droppingSender } from "./SandboxDrops.ts"
import { makeSandboxStateFile, type SandboxStateFile } from "./SandboxStateFile.ts"
import { makeTonBlockchain, type TonBlockchainOptions } from "./TonBlockchain.ts"
import { codeHashOf } from "./WalletContracts.ts"

export interface SandboxOptions extends TonBlockchainOptions {
  /** Directory for `ton-sandbox.json`; without it the chain lives in memory only. */
  readonly dataDir?: string
  /**
   * Time between two blocks: a sent message runs (and shows) with the next one. Default zero: at once.
   * See `SandboxBlocks.ts`.
   */
  readonly blockInterval?: Duration.Input
}

const STATE_FILE = "ton-sandbox.json"

const networkError = (message: string) => new BlockchainError({ reason: "NetworkError", message })

// The emulator's own bugs worked around: getTransactions reverses its array in place and its lt/hash
// cursor never matches, so sort by lt ourselves and page without it.
export const sandboxClient = (
  emulator: Emulator,
  afterWrite: Effect.Effect<void, BlockchainError>,
  blocks: SandboxBlocks = immediateBlocks(emulator)
): ChainClient => ({
  network: "sandbox",
  networkGlobalId: -239,
  account: (address) =>
    Effect.tryPromise({
      try: async () => {
        const contract = await emulator.getContract(address)
        const state = contract.accountState
        const status = state?.type ?? "uninit"
        const code = state?.type === "active" ? state.state.code : undefined
        const codeHash = code == null ? undefined : codeHashOf(code)
        const seqno =
          status === "active"
            ? await emulator.runGetMethod(address, "seqno").then(
                (r) => r.stackReader.readNumber(),
                () => 0
              )
            : 0
        const syncTime = emulator.now ?? Math.floor(Date.now() / 1000)
        const data = state?.type === "active" ? (state.state.data ?? undefined) : undefined
        return {
          status,
          balance: contract.balance,
          codeHash,
          seqno,
          data,
          syncTime,
          lastLt: contract.lastTransactionLt
        }
      },
      catch: () => networkError("The sandbox could not read the account")
    }),
  sendBoc: (boc) =>
    Effect.tryPromise({
      try: () => blocks.submit(Cell.fromBoc(boc)[0] ?? Cell.EMPTY),
      catch: (e) =>
        e instanceof EmulationError
          ? new BlockchainError({
              reason: "Rejected",
              message: `Rejected: ${rejectionText(e.exitCode)}`,
              ...(e.exitCode === undefined ? {} : { exitCode: e.exitCode })
            })
          : networkError("The sandbox could not process the message")
    }).pipe(Effect.andThen(afterWrite)),
  transactions: (address, page) =>
    Effect.tryPromise({
      try: async () => {
        const all = (await emulator.getTransactions(address)).toSorted((a, b) =>
          a.lt < b.lt ? 1 : a.lt > b.lt ? -1 : 0
        )
        const before = page.before
        return (before === undefined ? all : all.filter((tx) => tx.lt < before.lt)).slice(0, page.limit)
      },
      catch: () => networkError("The sandbox could not list transactions")
    })
})

export class SandboxBlockchain extends Context.Service<
  SandboxBlockchain,
  {
    /** The emulator itself, for tests and sandbox tools. */
    readonly emulator: Emulator
    /** Faucet: sends sandbox coins (non-bounceable) to any address, e.g. a customer's test wallet. */
    readonly fund: (address: string, amount: Nanoton) => Effect.Effect<void, BlockchainError>
    /** Writes the emulator state to the data dir now (also done after every send and fund). */
    readonly persist: Effect.Effect<void, BlockchainError>
    /** Where external messages go: at once, or into the mempool of the next block. */
    readonly blocks: SandboxBlocks
    /** Which payments the chain loses (by their comment): the sandbox Fragment's test recipient says. */
    readonly dropPayments: (rule: DropRule | undefined) => void
  }
>()("ton/SandboxBlockchain") {
  /** Provides both the `Blockchain` port and the sandbox extras over one emulator. */
  static readonly layerWith = (
    options: SandboxOptions = {}
  ): Layer.Layer<Blockchain | SandboxBlockchain, BlockchainError> =>
    Layer.effectContext(
      Effect.gen(function* () {
        const file = options.dataDir === undefined ? undefined : makeSandboxStateFile(join(options.dataDir, STATE_FILE))
        const emulator = yield* Effect.promise(() => Emulator.create())
        if (file !== undefined) yield* restore(emulator, file)
        const writing = Semaphore.makeUnsafe(1)
        const persist = file === undefined ? Effect.void : writing.withPermit(save(emulator, file))
        const sender = droppingSender(emulator)
        const blocks = yield* makeSandboxBlocks(emulator, options.blockInterval ?? Duration.zero, persist, sender.send)
        // With blocks, a send changes nothing until its block runs, which saves the state itself.
        const afterSend = Duration.toMillis(blocks.interval) > 0 ? Effect.void : persist
        const port = makeTonBlockchain(sandboxClient(emulator, afterSend, blocks), options)
        const fund = Effect.fn("SandboxBlockchain.fund")(function* (address: string, amount: Nanoton) {
          const to = yield* Effect.try({
            try: () => Address.parse(address.trim()),
            catch: () => new BlockchainError({ reason: "InvalidAddress", message: "Not a valid TON address" })
          })
          yield* Effect.tryPromise({
            try: async () => {
              const faucet = await emulator.treasury("faucet")
              const account = await emulator.getContract(faucet.address)
              if (account.balance < amount + toNano(1)) account.balance = amount + toNano(1_000_000)
              await faucet.send({ to, value: amount, bounce: false, sendMode: SendMode.PAY_GAS_SEPARATELY })
            },
            catch: () => networkError("The sandbox faucet failed")
          })
          yield* persist
        })
        return Context.make(Blockchain, port).pipe(
          Context.add(
            SandboxBlockchain,
            SandboxBlockchain.of({ emulator, fund, persist, blocks, dropPayments: sender.setRule })
          )
        )
      })
    )
}

const restore = (emulator: Emulator, stateFile: SandboxStateFile) =>
  Effect.tryPromise({
    try: () => stateFile.restore(emulator),
    catch: () => networkError(`The sandbox state file ${STATE_FILE} could not be read`)
  })

const save = (emulator: Emulator, stateFile: SandboxStateFile) =>
  Effect.tryPromise({
    try: () => stateFile.save(emulator),
    catch: () => networkError(`The sandbox state file ${STATE_FILE} could not be written`)
  })
