/**
 * A loopback toncenter: speaks the v2 JSON-RPC wire format (the calls TonClient makes) over an
 * @ton/sandbox emulator, so the real TonClient code is exercised end to end. Errors use toncenter's
 * wording; `sendFaults` lets a test lose the answer to a sendBoc (after or before it was applied).
 */
import { EmulationError, type Blockchain as Emulator } from "@ton/sandbox"
import { Address, beginCell, Cell, type Message, storeMessage, type Transaction, type TupleItem } from "@ton/ton"
import { Effect } from "effect"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

export type SendFault = "lostAfterApply" | "lostBeforeApply"

export interface ToncenterServer {
  url: string
  /** The next this many calls answer HTTP 429, as toncenter does over the key's rate. */
  rateLimitNext: number
  /** Faults applied to the next sendBoc calls, in order. */
  readonly sendFaults: Array<SendFault>
  /** JSON-RPC methods called, and the X-API-Key header of each call. */
  readonly calls: Array<{ readonly method: string; readonly apiKey: string | undefined }>
}

class RpcError extends Error {
  readonly status: number
  constructor(status: number, message: string) {
    super(message)
    this.status = status
  }
}

const b64 = (cell: Cell) => cell.toBoc().toString("base64")
const blockId = { "@type": "ton.blockIdExt", workchain: -1, shard: "-9223372036854775808", seqno: 1, root_hash: "", file_hash: "" }

const messageJson = (m: Message) => ({
  "@type": "raw.message",
  source: m.info.type === "external-in" ? "" : m.info.src?.toString() ?? "",
  destination: m.info.type === "external-out" ? "" : m.info.dest.toString(),
  value: m.info.type === "internal" ? m.info.value.coins.toString() : "0",
  fwd_fee: m.info.type === "internal" ? m.info.forwardFee.toString() : "0",
  ihr_fee: m.info.type === "internal" ? m.info.ihrFee.toString() : "0",
  created_lt: m.info.type === "external-in" ? "0" : m.info.createdLt.toString(),
  body_hash: m.body.hash().toString("base64"),
  msg_data: { "@type": "msg.dataRaw", body: b64(m.body) },
  message: b64(beginCell().store(storeMessage(m)).endCell())
})

const transactionJson = (tx: Transaction) => ({
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

const stackJson = (item: TupleItem): unknown =>
  item.type === "int" ? ["num", `${item.value < 0n ? "-" : ""}0x${(item.value < 0n ? -item.value : item.value).toString(16)}`]
    : item.type === "cell" || item.type === "slice" ? [item.type, { bytes: b64(item.cell) }]
    : ["null", null]

const methods = (emulator: Emulator, sendFaults: Array<SendFault>): Record<string, (params: any) => Promise<unknown>> => ({
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
      sync_utime: Math.floor(Date.now() / 1000)
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
    const fault = sendFaults.shift()
    if (fault === "lostBeforeApply") throw new RpcError(0, "connection lost")
    try {
      await emulator.sendMessage(Cell.fromBase64(boc))
    } catch (e) {
      if (!(e instanceof EmulationError)) throw e
      throw new RpcError(
        500,
        "LITE_SERVER_UNKNOWN: cannot apply external message to current state : External message was not accepted\n" +
          `Cannot run message on account: inbound external message rejected by transaction: exitcode=${e.exitCode ?? 0}, steps=0, gas_used=0`
      )
    }
    if (fault === "lostAfterApply") throw new RpcError(0, "connection lost")
    return { "@type": "ok" }
  },
  getTransactions: async ({ address, hash, limit, lt }) => {
    const all = (await emulator.getTransactions(Address.parse(address))).toSorted((a, b) => (a.lt < b.lt ? 1 : -1))
    const start = lt === undefined ? 0 : all.findIndex((tx) => tx.lt === BigInt(lt) && tx.hash().toString("hex") === hash)
    if (start < 0) throw new RpcError(500, "LITE_SERVER_UNKNOWN: cannot locate transaction in block with specified logical time")
    return all.slice(start, start + Number(limit ?? 10)).map(transactionJson)
  }
})

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

/** Starts on 127.0.0.1 at a random port; stops with the scope. */
export const startToncenterServer = (emulator: Emulator) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const server: ToncenterServer = { url: "", rateLimitNext: 0, sendFaults: [], calls: [] }
      const table = methods(emulator, server.sendFaults)
      const http = createServer(async (req, res) => {
        try {
          const rpc = JSON.parse(await readBody(req)) as { method: string; params: unknown }
          server.calls.push({ method: rpc.method, apiKey: req.headers["x-api-key"] as string | undefined })
          if (server.rateLimitNext > 0) {
            server.rateLimitNext--
            throw new RpcError(429, "Ratelimit exceed")
          }
          const handler = table[rpc.method]
          if (handler === undefined) throw new RpcError(404, `method ${rpc.method} not found`)
          const result = await handler(rpc.params)
          answer(res, 200, { ok: true, result, jsonrpc: "2.0", id: "1" })
        } catch (e) {
          if (e instanceof RpcError && e.status === 0) return void res.socket?.destroy()
          const status = e instanceof RpcError ? e.status : 500
          answer(res, status, { ok: false, error: e instanceof Error ? e.message : String(e), code: status, jsonrpc: "2.0", id: "1" })
        }
      })
      await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve))
      const { port } = http.address() as AddressInfo
      server.url = `http://127.0.0.1:${port}/api/v2/jsonRPC`
      return { http, server }
    }),
    ({ http }) =>
      Effect.promise(() =>
        new Promise<void>((resolve) => {
          http.close(() => resolve())
          http.closeAllConnections()
        })
      )
  ).pipe(Effect.map(({ server }) => server))
