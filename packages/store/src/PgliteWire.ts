/**
 * The embedded PGlite served over the PostgreSQL wire protocol to several clients at once: the
 * server's own pool through in-process streams (`connect`), and local tools (the CLI, backups) on a
 * Unix socket next to the data directory. PGlite is one session, so clients take turns:
 * - a client's messages run as whole cycles (up to its Sync or simple Query), never interleaved with
 *   another client's, so an extended-protocol cycle cannot be split by another client's Parse/Bind;
 * - while a client's transaction is open, only that client runs; the others wait until it ends;
 * - a client that disconnects inside a transaction has it rolled back.
 * (`@electric-sql/pglite-socket`, no longer a dependency, queues single messages, which splits cycles between clients.)
 */
import type { PGlite } from "@electric-sql/pglite"
import { createServer, type Server } from "node:net"
import { type Duplex, duplexPair } from "node:stream"

const SSL_REQUEST = 80877103
const CANCEL_REQUEST = 80877102
const PROTOCOL_3 = 196608

/** What a client is reached through: a socket, or the wire's end of an in-process pair. */
type Peer = Duplex & { setNoDelay?: (noDelay: boolean) => unknown }

interface Client {
  readonly id: number
  readonly socket: Peer
  buffer: Buffer
  pending: Array<Buffer>
}

interface Batch {
  readonly client: Client
  readonly bytes: Uint8Array
}

/** The transaction status of the last ReadyForQuery ('Z') message in `data`, if any. */
const lastStatus = (data: Uint8Array): string | undefined => {
  let status: string | undefined
  let at = 0
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
  while (at + 5 <= data.length) {
    const type = data[at]!
    const length = view.getInt32(at + 1)
    if (type === 0x5a && length === 5 && at + 6 <= data.length) status = String.fromCharCode(data[at + 5]!)
    at += 1 + length
  }
  return status
}

export class PgliteWire {
  private readonly queue: Array<Batch> = []
  private readonly clients = new Set<Client>()
  private readonly servers: Array<Server> = []
  private running = false
  /** The client whose transaction is open: only its batches run until it ends. */
  private owner: Client | undefined
  private nextId = 1
  private readonly db: PGlite

  constructor(db: PGlite) {
    this.db = db
  }

  /** Listens on `options` (`{ host, port }` or `{ path }`); resolves with the bound address. */
  listen(options: { readonly host: string; readonly port: number } | { readonly path: string }): Promise<string> {
    const server = createServer((socket) => this.attach(socket))
    this.servers.push(server)
    return new Promise((resolve, reject) => {
      server.once("error", reject)
      server.listen(options, () => {
        server.off("error", reject)
        const address = server.address()
        resolve(typeof address === "string" ? address : `${address?.address}:${address?.port}`)
      })
    })
  }

  /**
   * A client inside this process, with no socket anyone else could reach: the returned stream is the
   * client's end of a pair whose other end is served like a socket. Closing either end closes both
   * (a plain pair would leave the other end open, and a vanished client's transaction with it).
   */
  connect(): Duplex {
    const [client, served] = duplexPair()
    client.once("close", () => served.destroy())
    served.once("close", () => client.destroy())
    this.attach(served)
    return client
  }

  /** Batches waiting for their turn (for tests and diagnostics). */
  get waiting(): number {
    return this.queue.length
  }

  /** Stops listening and drops every client. */
  async close(): Promise<void> {
    for (const client of this.clients) client.socket.destroy()
    await Promise.all(this.servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))))
  }

  private attach(socket: Peer) {
    const client: Client = { id: this.nextId++, socket, buffer: Buffer.alloc(0), pending: [] }
    this.clients.add(client)
    socket.setNoDelay?.(true)
    socket.on("data", (data) => this.receive(client, data))
    socket.on("error", () => socket.destroy())
    socket.on("close", () => this.detach(client))
  }

  private detach(client: Client) {
    this.clients.delete(client)
    for (let i = this.queue.length - 1; i >= 0; i--) if (this.queue[i]!.client === client) this.queue.splice(i, 1)
    if (this.owner === client) {
      this.owner = undefined
      // The session is shared: an abandoned transaction must not stay open for the next client.
      void this.db
        .exec("ROLLBACK")
        .catch(() => undefined)
        .finally(() => this.pump())
    }
  }

  /** Splits the stream into messages; a Sync, simple Query, startup or Terminate closes a batch. */
  private receive(client: Client, data: Buffer) {
    client.buffer = client.buffer.length === 0 ? data : Buffer.concat([client.buffer, data])
    for (;;) {
      const buffer = client.buffer
      if (buffer.length < 8 && (buffer.length < 5 || buffer[0] === 0)) break
      const startupLength = buffer.readInt32BE(0)
      const code = buffer.length >= 8 ? buffer.readInt32BE(4) : -1
      if (code === SSL_REQUEST && startupLength === 8) {
        client.buffer = buffer.subarray(8)
        client.socket.write("N")
        continue
      }
      if (code === CANCEL_REQUEST && startupLength === 16) {
        if (buffer.length < 16) break
        client.buffer = buffer.subarray(16)
        continue
      }
      const startup = code === PROTOCOL_3
      const length = startup ? startupLength : 1 + buffer.readInt32BE(1)
      if (buffer.length < length) break
      const message = buffer.subarray(0, length)
      client.buffer = buffer.subarray(length)
      const type = startup ? 0 : message[0]!
      if (type === 0x58) {
        // Terminate: PGlite's session outlives the client
        client.socket.end()
        return
      }
      client.pending.push(message)
      if (startup || type === 0x53 || type === 0x51) {
        // startup, Sync, Query
        this.queue.push({ client, bytes: new Uint8Array(Buffer.concat(client.pending)) })
        client.pending = []
      }
    }
    this.pump()
  }

  private next(): Batch | undefined {
    const index = this.owner === undefined ? 0 : this.queue.findIndex((batch) => batch.client === this.owner)
    return index === -1 ? undefined : this.queue.splice(index, 1)[0]
  }

  private pump() {
    if (this.running) return
    const batch = this.next()
    if (batch === undefined) return
    this.running = true
    const answer: Array<Uint8Array> = []
    const { client } = batch
    this.db
      .runExclusive(() =>
        this.db.execProtocolRawStream(batch.bytes, {
          onRawData: (data) => {
            answer.push(data.slice())
            if (!client.socket.destroyed) client.socket.write(Buffer.from(data))
          }
        })
      )
      .catch(() => client.socket.destroy())
      .then(async () => {
        const status = lastStatus(Buffer.concat(answer))
        const inTransaction = status === "T" || status === "E"
        if (inTransaction && !this.clients.has(client)) await this.db.exec("ROLLBACK").catch(() => undefined)
        else if (inTransaction) this.owner = client
        else if (status === "I" && this.owner === client) this.owner = undefined
      })
      .finally(() => {
        this.running = false
        this.pump()
      })
  }
}
