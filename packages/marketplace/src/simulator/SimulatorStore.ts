/**
 * The sandbox Fragment's memory on disk (`DATA_DIR/fragment-sandbox.json`): its issued cookie
 * sessions with their latest purchase, the open invoices (and the latest finished ones), the
 * recipients found by searches. Written (to a temporary file, flushed, then renamed) before an
 * answer that changed it leaves, so a process that takes the sandbox world over from a killed owner,
 * or a sandbox started again, continues every invoice a client was told about: same cookies, same
 * `req_id`s, same `Ref#`s, as fragment.com outlives any one of its servers.
 * A signed message is kept once however many invoices it paid (`bocs`, each invoice's `boc_at`): a
 * wallet batch's message pays hundreds of invoices and is tens of kilobytes, and the file is written
 * again for almost every answer.
 */
import { Schema } from "effect"
import { readFileSync } from "node:fs"
import { rename, writeFile } from "node:fs/promises"
import type { InvoiceStatus, SimInvoice, SimSession, SimulatorState } from "./SimulatorState.ts"

/** Finished invoices kept besides the open ones (a late confirm or state read of a recent purchase). */
const FINISHED_KEPT = 500
/** Search results kept (a search's recipient token is used by the init right after it). */
const RECIPIENTS_KEPT = 1000

const Session = Schema.Struct({
  ssid: Schema.String,
  token: Schema.String,
  ton_token: Schema.String,
  hash: Schema.String,
  latest: Schema.NullOr(Schema.String),
  needs_resync: Schema.Boolean
})

const Invoice = Schema.Struct({
  req_id: Schema.String,
  kind: Schema.Literals(["stars", "premium", "ton"]),
  ssid: Schema.String,
  username: Schema.String,
  units: Schema.Number,
  amount: Schema.String,
  ref: Schema.String,
  comment: Schema.String,
  evm: Schema.Boolean,
  status: Schema.Literals(["created", "linked", "processing", "done", "cancelled"]),
  /** the signed message itself (files written before `bocs`), or null */
  boc: Schema.NullOr(Schema.String),
  /** index of the signed message in `bocs` */
  boc_at: Schema.optionalKey(Schema.Number),
  payer: Schema.optionalKey(Schema.String),
  pay_before: Schema.optionalKey(Schema.Number),
  processing_polls: Schema.Number,
  paid_at: Schema.NullOr(Schema.Number)
})

const Snapshot = Schema.Struct({
  /** the sessions handed out as cookies, the primary first */
  issued: Schema.Array(Schema.String),
  sessions: Schema.Array(Session),
  invoices: Schema.Array(Invoice),
  /** the distinct signed messages the invoices point to */
  bocs: Schema.optionalKey(Schema.Array(Schema.String)),
  recipients: Schema.Array(Schema.Struct({ token: Schema.String, username: Schema.String })),
  next_req: Schema.Number,
  drop_refs: Schema.Array(Schema.String),
  drop_next: Schema.Boolean
})
type Snapshot = typeof Snapshot.Type

const decode = Schema.decodeUnknownOption(Schema.fromJsonString(Snapshot))

const isOpen = (status: InvoiceStatus) => status === "created" || status === "linked" || status === "processing"

type InvoiceRecord = Snapshot["invoices"][number]

const recordOf = (i: SimInvoice, bocAt: number | undefined): InvoiceRecord => ({
  req_id: i.reqId,
  kind: i.kind,
  ssid: i.ssid,
  username: i.username,
  units: i.units,
  amount: i.amount.toString(),
  ref: i.ref,
  comment: i.comment,
  evm: i.evm,
  status: i.status,
  boc: null,
  ...(bocAt === undefined ? {} : { boc_at: bocAt }),
  ...(i.payer === undefined ? {} : { payer: i.payer }),
  ...(i.payBefore === undefined ? {} : { pay_before: i.payBefore }),
  processing_polls: i.processingPolls,
  paid_at: i.paidAt ?? null
})

// An invoice's JSON, made again only when a field that changes did: the file is written for almost
// every answer, and most of its invoices are the same as in the previous write.
const invoiceJsons = new WeakMap<SimInvoice, { readonly key: string; readonly json: string }>()
const invoiceJson = (i: SimInvoice, bocAt: number | undefined): string => {
  const key = `${i.status} ${bocAt} ${i.payer} ${i.payBefore} ${i.processingPolls} ${i.paidAt}`
  const known = invoiceJsons.get(i)
  if (known?.key === key) return known.json
  const json = JSON.stringify(recordOf(i, bocAt))
  invoiceJsons.set(i, { key, json })
  return json
}

/** Writes the file's text: the snapshot's JSON, made of the JSON kept from earlier writes where nothing changed. */
const makeTextOf = () => {
  // The recipients only grow (a search adds one): their JSON is the same while their number is.
  let recipients = { size: -1, json: "" }
  // A signed message's JSON, by the message (one string per message, `SimulatorDelivery.ts`).
  let bocJsons = new Map<string, string>()
  return (state: SimulatorState, issued: ReadonlyArray<string>): string => {
    const all = [...state.invoices.values()]
    const latest = new Set([...state.sessions.values()].map((s) => s.latest))
    const finished = new Set(all.filter((i) => !isOpen(i.status) && !latest.has(i.reqId)).slice(-FINISHED_KEPT))
    const kept = all.filter((i) => isOpen(i.status) || latest.has(i.reqId) || finished.has(i))
    const ssids = new Set([...issued, ...kept.map((i) => i.ssid)])
    const sessions = [...state.sessions.values()].filter((s) => ssids.has(s.ssid))
    const magic = state.magic.persisted()
    const bocs = new Map<string, number>()
    const bocAt = (boc: string) => {
      const known = bocs.get(boc)
      if (known !== undefined) return known
      bocs.set(boc, bocs.size)
      return bocs.size - 1
    }
    const invoices = kept.map((i) => invoiceJson(i, i.boc === undefined ? undefined : bocAt(i.boc)))
    const others: Omit<Snapshot, "invoices" | "bocs" | "recipients"> = {
      issued: [...issued],
      sessions: sessions.map((s) => ({
        ssid: s.ssid,
        token: s.token,
        ton_token: s.tonToken,
        hash: s.hash,
        latest: s.latest ?? null,
        needs_resync: s.needsResync
      })),
      next_req: state.nextReq,
      drop_refs: magic.dropRefs,
      drop_next: magic.dropNext
    }
    if (recipients.size !== state.recipients.size) {
      const kept = [...state.recipients.entries()].slice(-RECIPIENTS_KEPT)
      recipients = {
        size: state.recipients.size,
        json: JSON.stringify(kept.map(([token, username]) => ({ token, username })))
      }
    }
    const previous = bocJsons
    bocJsons = new Map([...bocs.keys()].map((boc) => [boc, previous.get(boc) ?? JSON.stringify(boc)]))
    const head = `{"invoices":[${invoices.join(",")}],"bocs":[${[...bocJsons.values()].join(",")}]`
    return `${head},"recipients":${recipients.json},${JSON.stringify(others).slice(1)}`
  }
}

/** Puts a snapshot back into a fresh state; the issued sessions' ids, primary first. */
const restore = (state: SimulatorState, snapshot: Snapshot): ReadonlyArray<string> => {
  for (const s of snapshot.sessions) {
    const session: SimSession = {
      ssid: s.ssid,
      token: s.token,
      tonToken: s.ton_token,
      hash: s.hash,
      latest: s.latest ?? undefined,
      needsResync: s.needs_resync
    }
    state.sessions.set(session.ssid, session)
  }
  for (const i of snapshot.invoices) {
    const invoice: SimInvoice = {
      reqId: i.req_id,
      kind: i.kind,
      ssid: i.ssid,
      username: i.username,
      units: i.units,
      amount: BigInt(i.amount),
      ref: i.ref,
      comment: i.comment,
      evm: i.evm,
      status: i.status,
      boc: i.boc ?? (i.boc_at === undefined ? undefined : snapshot.bocs?.[i.boc_at]),
      ...(i.payer === undefined ? {} : { payer: i.payer }),
      ...(i.pay_before === undefined ? {} : { payBefore: i.pay_before }),
      processingPolls: i.processing_polls,
      ...(i.paid_at === null ? {} : { paidAt: i.paid_at })
    }
    state.invoices.set(invoice.reqId, invoice)
  }
  for (const r of snapshot.recipients) state.recipients.set(r.token, r.username)
  state.nextReq = Math.max(state.nextReq, snapshot.next_req)
  state.magic.restore({ dropRefs: snapshot.drop_refs, dropNext: snapshot.drop_next })
  return snapshot.issued.filter((ssid) => state.sessions.has(ssid))
}

export interface SimulatorStore {
  /** Restores the file's state into `state`: the issued sessions, or none when there is no (readable) file. */
  readonly load: (state: SimulatorState) => ReadonlyArray<string>
  /** Writes the state if it changed since the last write; resolves once it is on disk. */
  readonly save: (state: SimulatorState, issued: ReadonlyArray<string>) => Promise<void>
}

export const makeSimulatorStore = (file: string): SimulatorStore => {
  const textOf = makeTextOf()
  let written = ""
  // One write at a time. A save while a write is still waiting for its turn joins that write: it
  // snapshots the state when it starts, so it holds this change too (a burst of answers costs one
  // snapshot and one flush, not one each, and each answer still leaves only once it is on disk).
  let queue: Promise<void> = Promise.resolve()
  let waiting: Promise<void> | undefined
  const load = (state: SimulatorState) => {
    let text = ""
    try {
      text = readFileSync(file, "utf8")
    } catch {
      // no file yet: a new sandbox world
      return []
    }
    const snapshot = decode(text)
    if (snapshot._tag === "None") return []
    written = text
    return restore(state, snapshot.value)
  }
  const write = async (state: SimulatorState, issued: ReadonlyArray<string>) => {
    const text = textOf(state, issued)
    if (text === written) return
    await writeFile(`${file}.tmp`, text, { mode: 0o600, flush: true })
    await rename(`${file}.tmp`, file)
    written = text
  }
  const save = (state: SimulatorState, issued: ReadonlyArray<string>) => {
    if (waiting !== undefined) return waiting
    const next = queue
      .then(() => {
        // From here on the snapshot is taken: a later change needs a write of its own.
        waiting = undefined
        return write(state, issued)
      })
      .catch(() => undefined)
    waiting = next
    queue = next
    return next
  }
  return { load, save }
}
