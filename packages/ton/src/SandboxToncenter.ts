/**
 * The sandbox emulator served as a toncenter v2 JSON-RPC endpoint (the calls TonClient makes:
 * getAddressInformation, runGetMethod, sendBoc, getTransactions), with toncenter's error wording.
 * Lets other processes (worker, CLI) in sandbox mode use `TonCenterBlockchain` against the one
 * process that owns the emulator, and lets tests run the real TonClient code end to end.
 */
import type { BlockchainError, Nanoton } from "@resale/core/ports/Blockchain.ts"
import { type Blockchain as Emulator, EmulationError } from "@ton/sandbox"
import { Address, beginCell, Cell, type Message, storeMessage, type Transaction, type TupleItem } from "@ton/ton"
import { Duration, Effect } from "effect"
import { immediateBlocks, type SandboxBlocks } from "./SandboxBlocks.ts"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

/** What the server needs of `SandboxBlockchain`: the emulator, and saving it after a send. */
export interface SandboxChain {
  readonly emulator: Emulator
  readonly persist: Effect.Effect<void, BlockchainError>
  /** The faucet, served as the sandbox-only `sandboxFund` method (for `SandboxFaucet.remote`). */
  readonly fund?: (address: string, amount: Nanoton) => Effect.Effect<void, BlockchainError>
  /** Where a sent message goes (the mempool of the next block, or straight in); default straight in. */
  readonly blocks?: SandboxBlocks
}

/** Fault drills: answer 429, or drop the connection before or after running the call. */
export type Interception = "rateLimit" | "dropBefore" | "dropAfter" | undefined

export interface SandboxToncenterOptions {
  /** Default 127.0.0.1: never expose a faucet-backed chain beyond the machine by accident. */
  readonly host?: string
  /** Default 0: a free port. */
  readonly port?: number
  readonly intercept?: (call: { readonly method: string; readonly apiKey: string | undefined }) => Interception
}

class RpcError extends Error {
  readonly status: number
  constructor(status: number, message: string) {
    super(message)
    this.status = status
  }
}

const b64 = (cell: Cell) => cell.toBoc().toString("base64")
const blockId = {
  "@type": "ton.blockIdExt",
  workchain: -1,
  shard: "-9223372036854775808",
  seqno: 1,
  root_hash: "",
  file_hash: ""
}

const messageJson = (m: Message) => ({
  "@type": "raw.message",
  source: m.info.type === "external-in" ? "" : (m.info.src?.toString() ?? ""),
  destination: m.info.type === "external-out" ? "" : m.info.dest.toString(),
  value: m.info.type === "internal" ? m.info.value.coins.toString() : "0",
  fwd_fee: m.info.type === "internal" ? m.info.forwardFee.toString() : "0",
  ihr_fee: m.info.type === "internal" ? m.info.ihrFee.toString() : "0",
  created_lt: m.info.type === "external-in" ? "0" : m.info.createdLt.toString(),
  body_hash: m.body.hash().toString("base64"),
  msg_data: { "@type": "msg.dataRaw", body: b64(m.body) },
  message: b64(beginCell().store(storeMessage(m)).endCell())
})

const transactionJsonOf = (tx: Transaction) => ({
  "@type": "raw.transaction",
  data: b64(tx.raw),
  utime: tx.now,
  transaction_id: { "@type": "internal.transactionId", lt: tx.lt.toString(), hash: tx.hash().toString("base64") },
  fee: tx.totalFees.coins.toString(),
  storage_fee: "0",
  other_fee: tx.totalFees.coins.toString(),
  ...(tx.inMessage == null ? {} : { in_msg: messageJson(tx.inMessage) }),
  out_msgs: tx.outMessages.values().map(messageJson)
})

// A transaction never changes: its JSON (a Highload batch's carries hundreds of out messages) is made once.
const transactionJsons = new WeakMap<Transaction, unknown>()
const transactionJson = (tx: Transaction) => {
  const known = transactionJsons.get(tx)
  if (known !== undefined) return known
  const json = transactionJsonOf(tx)
  transactionJsons.set(tx, json)
  return json
}

const stackJson = (item: TupleItem): unknown =>
  item.type === "int"
    ? ["num", `${item.value < 0n ? "-" : ""}0x${(item.value < 0n ? -item.value : item.value).toString(16)}`]
    : item.type === "cell" || item.type === "slice"
      ? [item.type, { bytes: b64(item.cell) }]
      : ["null", null]

const methods = (sandbox: SandboxChain): Record<string, (params: any) => Promise<unknown>> => {
  const emulator = sandbox.emulator
  const blocks = sandbox.blocks ?? immediateBlocks(emulator)
  return {
    getAddressInformation: async ({ address }) => {
      const contract = await emulator.getContract(Address.parse(address))
      const state = contract.accountState
      return {
        "@type": "raw.fullAccountState",
        balance: contract.balance.toString(),
        extra_currencies: [],
        state: state?.type === "active" ? "active" : state?.type === "frozen" ? "frozen" : "uninitialized",
        code: state?.type === "active" && state.state.code ? b64(state.state.code) : "",
        data: state?.type === "active" && state.state.data ? b64(state.state.data) : "",
        last_transaction_id: {
          "@type": "internal.transactionId",
          lt: contract.lastTransactionLt.toString(),
          hash: Buffer.from(contract.lastTransactionHash.toString(16).padStart(64, "0"), "hex").toString("base64")
        },
        block_id: blockId,
        sync_utime: emulator.now ?? Math.floor(Date.now() / 1000)
      }
    },
    runGetMethod: async ({ address, method }) => {
      const contract = await emulator.getContract(Address.parse(address))
      if (contract.accountState?.type !== "active") return { gas_used: 0, exit_code: -13, stack: [] }
      const result = await emulator.runGetMethod(Address.parse(address), method).catch(() => undefined)
      if (result === undefined) return { gas_used: 0, exit_code: 11, stack: [] }
      return { gas_used: Number(result.gasUsed), exit_code: result.exitCode, stack: result.stack.map(stackJson) }
    },
    sendBoc: async ({ boc }) => {
      try {
        await blocks.submit(Cell.fromBase64(boc))
      } catch (e) {
        if (!(e instanceof EmulationError)) throw e
        throw new RpcError(
          500,
          "LITE_SERVER_UNKNOWN: cannot apply external message to current state : External message was not accepted\n" +
            `Cannot run message on account: inbound external message rejected by transaction: exitcode=${e.exitCode ?? 0}, steps=0, gas_used=0`
        )
      }
      // With blocks, nothing changed yet: the block saves the state when it runs.
      if (Duration.toMillis(blocks.interval) === 0) await Effect.runPromise(Effect.ignore(sandbox.persist))
      return { "@type": "ok" }
    },
    // Not toncenter's: the faucet of a sandbox world, for the other processes of its data directory.
    sandboxFund: async ({ address, amount }) => {
      if (sandbox.fund === undefined) throw new RpcError(404, "method sandboxFund not found")
      const funded = await Effect.runPromise(Effect.result(sandbox.fund(String(address), BigInt(amount) as Nanoton)))
      if (funded._tag === "Failure") throw new RpcError(400, funded.failure.message)
      return { "@type": "ok" }
    },
    getTransactions: async ({ address, hash, limit, lt }) => {
      const all = (await emulator.getTransactions(Address.parse(address))).toSorted((a, b) => (a.lt < b.lt ? 1 : -1))
      const start =
        lt === undefined ? 0 : all.findIndex((tx) => tx.lt === BigInt(lt) && tx.hash().toString("hex") === hash)
      if (start < 0)
        throw new RpcError(500, "LITE_SERVER_UNKNOWN: cannot locate transaction in block with specified logical time")
      return all.slice(start, start + Number(limit ?? 10)).map(transactionJson)
    }
  }
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    req.on("error", reject)
  })

const answer = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "content-type": "application/json" })
  res.end(JSON.stringify(body))
}

/** Serves until the scope closes; the URL is the JSON-RPC endpoint to give TonClient. */
export const serveSandboxToncenter = (sandbox: SandboxChain, options: SandboxToncenterOptions = {}) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const table = methods(sandbox)
      const http = createServer(async (req, res) => {
        try {
          const rpc = JSON.parse(await readBody(req)) as { method: string; params: unknown }
          const apiKey = req.headers["x-api-key"]
          const fault = options.intercept?.({
            method: rpc.method,
            apiKey: typeof apiKey === "string" ? apiKey : undefined
          })
          if (fault === "rateLimit") throw new RpcError(429, "Ratelimit exceed")
          if (fault === "dropBefore") throw new RpcError(0, "connection lost")
          const handler = table[rpc.method]
          if (handler === undefined) throw new RpcError(404, `method ${rpc.method} not found`)
          const result = await handler(rpc.params)
          if (fault === "dropAfter") throw new RpcError(0, "connection lost")
          answer(res, 200, { ok: true, result, jsonrpc: "2.0", id: "1" })
        } catch (e) {
          if (e instanceof RpcError && e.status === 0) return void res.socket?.destroy()
          const status = e instanceof RpcError ? e.status : 500
          answer(res, status, {
            ok: false,
            error: e instanceof Error ? e.message : String(e),
            code: status,
            jsonrpc: "2.0",
            id: "1"
          })
        }
      })
      const host = options.host ?? "127.0.0.1"
      await new Promise<void>((resolve) => http.listen(options.port ?? 0, host, resolve))
      const { port } = http.address() as AddressInfo
      return { http, url: `http://${host}:${port}/api/v2/jsonRPC` }
    }),
    ({ http }) =>
      Effect.promise(
        () =>
          new Promise<void>((resolve) => {
            http.close(() => resolve())
            http.closeAllConnections()
          })
      )
  ).pipe(Effect.map(({ url }) => ({ url })))
