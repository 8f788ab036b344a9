/**
 * Mainnet/testnet: the Blockchain port over toncenter's v2 JSON-RPC through @ton/ton's TonClient.
 * Options from `@resale/config` (TONCENTER_URL, TONCENTER_API_KEY, TON_NETWORK, TONCENTER_TIMEOUT).
 * HTTP 500 "cannot apply external message" is the node refusing our message -> Rejected (with the
 * wallet's exit code); anything else means the outcome is unknown -> NetworkError / Timeout.
 */
import { Blockchain, BlockchainError } from "@resale/core/ports/Blockchain.ts"
import { Cell, HttpApi, TonClient, type TonClientParameters } from "@ton/ton"
import { Duration, Effect, Layer, Redacted, Schedule } from "effect"
import { type ChainClient, rejectionText } from "./ChainClient.ts"
import { makeTonBlockchain, type TonBlockchainOptions } from "./TonBlockchain.ts"
import { HIGHLOAD_V3_CODE_HASH } from "./HighloadWalletV3.ts"
import { makeParsedTransactions } from "./ParsedTransactions.ts"
import { networkGlobalIdOf } from "./PayerAccount.ts"
import { codeHashOf } from "./WalletContracts.ts"

export interface TonCenterOptions extends TonBlockchainOptions {
  /** toncenter v2 JSON-RPC endpoint, e.g. https://toncenter.com/api/v2/jsonRPC */
  readonly endpoint: string
  readonly apiKey?: Redacted.Redacted<string>
  readonly network: "mainnet" | "testnet"
  /** Per HTTP request. Default 15 seconds. */
  readonly timeout?: Duration.Input
  /** First wait after an HTTP 429, doubled on each of up to 3 retries. Default 1 second. */
  readonly rateLimitDelay?: Duration.Input
}

interface HttpFailure {
  readonly code?: string
  readonly response?: { readonly status?: number; readonly data?: unknown }
}

/** Maps a TonClient (axios) failure; the message never carries request bodies or the API key. */
export const toBlockchainError = (call: string, cause: unknown): BlockchainError => {
  const failure = (typeof cause === "object" && cause !== null ? cause : {}) as HttpFailure
  const status = failure.response?.status
  const body = JSON.stringify(failure.response?.data ?? "")
  if (call === "sendBoc" && /cannot apply external message/i.test(body)) {
    const exit = /exit ?code[=: ]+(-?\d+)/i.exec(body)?.[1]
    const exitCode = exit === undefined ? undefined : Number(exit)
    return new BlockchainError({
      reason: "Rejected",
      message: `Rejected: ${rejectionText(exitCode)}`,
      ...(exitCode === undefined ? {} : { exitCode })
    })
  }
  if (failure.code === "ECONNABORTED" || failure.code === "ETIMEDOUT") {
    return new BlockchainError({ reason: "Timeout", message: `toncenter ${call} did not answer in time` })
  }
  const detail = status === undefined ? (failure.code ?? "no answer") : `HTTP ${status}`
  return new BlockchainError({ reason: "NetworkError", message: `toncenter ${call} failed (${detail})` })
}

const rateLimited = (cause: unknown) => (cause as HttpFailure | undefined)?.response?.status === 429

export const tonCenterClient = (
  parameters: TonClientParameters,
  network: "mainnet" | "testnet",
  rateLimitDelay: Duration.Input = "1 second"
): ChainClient => {
  // 429 is toncenter's per-key rate limit: wait and ask again (a repeated sendBoc is the same BOC).
  const call = <A>(name: string, run: () => Promise<A>) =>
    Effect.tryPromise({ try: run, catch: (cause) => cause }).pipe(
      Effect.retry({ while: rateLimited, times: 3, schedule: Schedule.exponential(rateLimitDelay) }),
      Effect.mapError((cause) => toBlockchainError(name, cause))
    )
  const client = new TonClient(parameters)
  // The raw JSON-RPC of the same endpoint, for the transactions' ids (TonClient parses every one it reads).
  const api = new HttpApi(parameters.endpoint, {
    ...(parameters.timeout === undefined ? {} : { timeout: parameters.timeout }),
    ...(parameters.apiKey === undefined ? {} : { apiKey: parameters.apiKey }),
    ...(parameters.httpAdapter === undefined ? {} : { adapter: parameters.httpAdapter })
  })
  const transactions = makeParsedTransactions()
  return {
    network,
    networkGlobalId: networkGlobalIdOf(network),
    account: (address) =>
      call("getAddressInformation", async () => {
        const state = await client.getContractState(address)
        const status = state.state === "uninitialized" ? "uninit" : state.state
        const code = state.code === null ? undefined : Cell.fromBoc(state.code)[0]
        const codeHash = code === undefined ? undefined : codeHashOf(code)
        // A Highload Wallet V3 has no seqno get-method (asking answers an exit code, read as 0): its
        // state is read on every confirmation poll, so the node is not asked the question in vain.
        const seqno =
          status === "active" && codeHash !== HIGHLOAD_V3_CODE_HASH
            ? await client
                .runMethodWithError(address, "seqno")
                .then((r) => (r.exit_code === 0 ? r.stack.readNumber() : 0))
            : 0
        const lastLt = BigInt(state.lastTransaction?.lt ?? 0)
        const data = status === "active" && state.data !== null ? Cell.fromBoc(state.data)[0] : undefined
        return { status, balance: state.balance, codeHash, seqno, data, syncTime: state.timestampt, lastLt }
      }),
    sendBoc: (boc) => Effect.asVoid(call("sendBoc", () => client.sendFile(boc))),
    transactions: (address, page) =>
      call("getTransactions", async () => {
        // As TonClient.getTransactions asks (below `before`, exclusive), each transaction parsed once.
        const raw = await api.getTransactions(address, {
          limit: page.limit,
          archival: true,
          ...(page.before === undefined
            ? {}
            : { lt: page.before.lt.toString(), hash: page.before.hash.toString("base64") })
        })
        return raw.map(transactions.parse)
      })
  }
}

export const makeTonCenterBlockchain = (options: TonCenterOptions) =>
  makeTonBlockchain(
    tonCenterClient(
      {
        endpoint: options.endpoint,
        timeout: Duration.toMillis(options.timeout ?? "15 seconds"),
        ...(options.apiKey === undefined ? {} : { apiKey: Redacted.value(options.apiKey) })
      },
      options.network,
      options.rateLimitDelay
    ),
    options
  )

export class TonCenterBlockchain {
  /** The port over toncenter with `options` (production: from `@resale/config`; tests: a loopback toncenter). */
  static readonly layerWith = (options: TonCenterOptions) => Layer.succeed(Blockchain, makeTonCenterBlockchain(options))
}
