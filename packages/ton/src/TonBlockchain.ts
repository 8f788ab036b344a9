/**
 * The Blockchain port over any ChainClient: wallet resolution, signing one transfer at a time per
 * wallet, and confirmation by the TEP-467 hash. The sandbox and toncenter adapters both use it.
 */
import {
  type AccountState,
  Blockchain,
  BlockchainError,
  Nanoton,
  type PreparedTransfer,
  type TransferRequest,
  type TransferStatus,
  Wallet,
  type WalletVersion
} from "@resale/core/ports/Blockchain.ts"
import { Address } from "@ton/ton"
import { Clock, Effect, type Redacted } from "effect"
import type { ChainClient } from "./ChainClient.ts"
import { makeHashSearch } from "./HashSearch.ts"
import { makeInFlight } from "./InFlight.ts"
import { makeTonBatches } from "./TonBatches.ts"
import { deriveKeys } from "./Mnemonic.ts"
import { messageBody, normalizedHashOfBoc, parseRecipient, verdict } from "./Transfers.ts"
import { chainFail as fail, ensureFunds, messageDeadline } from "./WalletChecks.ts"
import { expectedCodeHash, signedExternal, WALLET_VERSIONS, walletContract } from "./WalletContracts.ts"
import { walletAccountOf } from "./WalletOnChain.ts"

export interface TonBlockchainOptions {
  /** Lifetime of a signed message in seconds (valid_until = now + ttl). Default 60. */
  readonly ttlSeconds?: number
  /**
   * A message counts as dead once both our clock and the node's synced chain time are this far past
   * its valid_until (a shard block of that time must have reached the masterchain). Default 10.
   */
  readonly expiryMarginSeconds?: number
  /** Kept free for fees: measured worst cases are 3.1M steady and 5.95M with deploy. */
  readonly feeReserve?: { readonly active: bigint; readonly deploy: bigint }
  /** How far back `confirm` pages through the wallet's history (pages of 20). Default 50. */
  readonly historyPages?: number
}

const nowSeconds = Effect.map(Clock.currentTimeMillis, (ms) => Math.floor(ms / 1000))

const parseAddress = (text: string) =>
  Effect.try({ try: () => Address.parse(text.trim()), catch: () => fail("InvalidAddress", "Not a valid TON address") })

export const makeTonBlockchain = (client: ChainClient, options: TonBlockchainOptions = {}): Blockchain["Service"] => {
  const ttl = options.ttlSeconds ?? 60
  const margin = options.expiryMarginSeconds ?? 10
  const reserve = options.feeReserve ?? { active: 10_000_000n, deploy: 20_000_000n }
  const maxPages = options.historyPages ?? 50
  const inFlight = makeInFlight()
  const friendly = (a: Address) =>
    a.toString({ bounceable: false, testOnly: client.network === "testnet", urlSafe: true })

  const resolveWallet = Effect.fn("Blockchain.resolveWallet")(function* (
    mnemonic: Redacted.Redacted<string>,
    opts?: { readonly version?: WalletVersion }
  ) {
    const keys = yield* deriveKeys(mnemonic)
    // A version asked for is looked up too (the hot wallet's Highload V3 is no wallet app's default).
    const versions =
      opts?.version === undefined || WALLET_VERSIONS.includes(opts.version) ? WALLET_VERSIONS : [opts.version]
    const candidates = keys.flatMap((k) =>
      versions.map((version) => ({
        ...k,
        version,
        contract: walletContract(version, k.key.publicKey, client.networkGlobalId)
      }))
    )
    const looked = yield* Effect.forEach(
      candidates,
      (c) => Effect.map(client.account(c.contract.address), (account) => ({ ...c, account })),
      { concurrency: "unbounded" }
    )
    const used = looked.filter((c) => c.account.status === "active" || c.account.balance > 0n)
    if (used.length === 0) {
      // The first kind of key the phrase validates as is the one wallets show for it.
      const first = candidates.filter((c) => c.kind === candidates[0]?.kind)
      return yield* new BlockchainError({
        reason: "WalletNotFound",
        message: `No wallet of this phrase (${versions.join(" or ")}) holds TON or is deployed yet`,
        addresses: first.map((c) => ({ version: c.version, address: friendly(c.contract.address) }))
      })
    }
    const live = used.filter((c) => c.account.status !== "frozen")
    if (live.length === 0) return yield* fail("Frozen", "The wallet of this phrase is frozen")
    // Like MyTonWallet: a deployed wallet first, then the bigger balance.
    const ranked = live.toSorted(
      (a, b) =>
        (a.account.status === "active" ? 0 : 1) - (b.account.status === "active" ? 0 : 1) ||
        (b.account.balance > a.account.balance ? 1 : b.account.balance < a.account.balance ? -1 : 0)
    )
    const pick = opts?.version === undefined ? ranked[0] : ranked.find((c) => c.version === opts.version)
    if (pick === undefined) {
      return yield* fail(
        "VersionMismatch",
        `The funded wallet of this phrase is ${ranked[0]?.version}, not ${opts?.version}`
      )
    }
    if (pick.account.status === "active" && pick.account.codeHash !== expectedCodeHash(pick.version)) {
      return yield* fail("VersionMismatch", `The wallet does not run standard ${pick.version} code`)
    }
    return new Wallet({
      address: friendly(pick.contract.address),
      version: pick.version,
      kind: pick.kind,
      status: pick.account.status,
      balance: Nanoton.make(pick.account.balance),
      key: pick.key
    })
  })

  // Every transaction of `wallet` since `since` whose external-in message has this normalized hash.
  const findByHash = makeHashSearch(client, maxPages)

  const status = Effect.fn("Blockchain.status")(function* (prepared: PreparedTransfer) {
    const wallet = yield* parseAddress(prepared.wallet)
    const to = yield* parseAddress(prepared.to)
    // State first, history second: whatever the state already shows must then be in the history.
    const account = yield* client.account(wallet)
    // Five minutes of slack for clock skew between us and the validators.
    const history = yield* findByHash(wallet, prepared.externalHash, prepared.createdAt - 300)
    const verdicts = history.found.map((tx) => verdict(tx, to, prepared.amount))
    const paid = verdicts.find((v) => v._tag === "Paid")
    if (paid !== undefined) return paid.status
    // Judged by the node's view of chain time too, so a lagging node cannot make a live message look dead.
    const dead = (yield* nowSeconds) > prepared.validUntil + margin && account.syncTime > prepared.validUntil + margin
    const seqnoUsed = account.seqno > prepared.seqno
    const pending: TransferStatus = { _tag: "Pending" }
    const first = verdicts[0]
    if (first !== undefined) return seqnoUsed || dead ? first.status : pending
    // "Not in the history" only counts if the history we read reaches the state we read (nodes differ).
    const searched = history.complete && history.newest >= account.lastLt
    if (seqnoUsed)
      return dead && searched ? ({ _tag: "Failed", reason: "Superseded" } satisfies TransferStatus) : pending
    return dead ? ({ _tag: "Expired" } satisfies TransferStatus) : pending
  })

  const confirm = Effect.fn("Blockchain.confirm")(function* (prepared: PreparedTransfer) {
    const result = yield* status(prepared)
    if (result._tag !== "Pending") {
      const wallet = yield* parseAddress(prepared.wallet)
      inFlight.release(wallet.toRawString(), prepared.externalHash)
    }
    return result
  })

  const prepareTransfer = Effect.fn("Blockchain.prepareTransfer")(function* (wallet: Wallet, request: TransferRequest) {
    if (request.amount <= 0n) return yield* fail("InvalidAmount", "The amount must be positive")
    if (wallet.version === "highload-v3")
      return yield* fail("VersionMismatch", "A Highload Wallet V3 pays through prepareBatch (a batch of one is fine)")
    const recipient = yield* parseRecipient(request.to)
    const body = yield* messageBody(request)
    const key = Wallet.key(wallet)
    const contract = walletContract(wallet.version, key.publicKey, client.networkGlobalId)
    const lockKey = contract.address.toRawString()
    return yield* inFlight.exclusive(lockKey)(
      Effect.gen(function* () {
        const previous = inFlight.current(lockKey)
        if (previous !== undefined) {
          const before = yield* status(previous)
          if (before._tag === "Pending") {
            return yield* fail("Busy", "Another transfer from this wallet is still in flight")
          }
          inFlight.release(lockKey, previous.externalHash)
        }
        const account = yield* client.account(contract.address)
        if (account.status === "frozen") return yield* fail("Frozen", "The wallet is frozen")
        const deploy = account.status !== "active"
        const keep = deploy ? reserve.deploy : reserve.active
        yield* ensureFunds(account.balance, request.amount, keep)
        const now = yield* nowSeconds
        const validUntil = yield* messageDeadline(now, ttl, [request], "The payment request has already expired")
        const boc = yield* signedExternal({
          contract,
          key,
          seqno: account.seqno,
          validUntil,
          deploy,
          messages: [{ to: recipient.address, value: request.amount, bounce: recipient.bounce, body }]
        })
        const prepared: PreparedTransfer = {
          wallet: friendly(contract.address),
          to: recipient.friendly,
          amount: request.amount,
          bounce: recipient.bounce,
          seqno: account.seqno,
          createdAt: now,
          validUntil,
          externalHash: normalizedHashOfBoc(boc),
          boc: boc.toBoc().toString("base64")
        }
        inFlight.hold(lockKey, prepared)
        return prepared
      })
    )
  })

  const send = Effect.fn("Blockchain.send")(function* (prepared: { readonly boc: string }) {
    yield* client.sendBoc(Buffer.from(prepared.boc, "base64"))
  })

  const accountState = Effect.fn("Blockchain.accountState")(function* (address: string) {
    const parsed = yield* parseAddress(address)
    const raw = yield* client.account(parsed)
    return {
      address,
      status: raw.status,
      balance: Nanoton.make(raw.balance),
      seqno: raw.seqno,
      syncTime: raw.syncTime
    } satisfies AccountState
  })

  const batches = makeTonBatches({
    client,
    inFlight,
    ttl,
    margin,
    reserve,
    maxPages,
    friendly,
    nowSeconds,
    parseAddress,
    status,
    findByHash
  })

  return Blockchain.of({
    ...batches,
    network: client.network,
    resolveWallet,
    parseAddress: (address) => Effect.map(parseRecipient(address), (r) => r.friendly),
    prepareTransfer,
    send,
    confirm,
    balance: (address) => Effect.map(accountState(address), (s) => s.balance),
    accountState,
    walletAccount: (address) => Effect.flatMap(parseAddress(address), (parsed) => walletAccountOf(client, parsed))
  })
}
