/**
 * The sandbox Fragment's memory on disk (`DATA_DIR/fragment-sandbox.json`): its issued cookie
 * sessions with their latest purchase, the open invoices (and the latest finished ones), the
 * recipients found by searches. On disk (flushed) before an answer that changed it leaves, so a
 * process that takes the sandbox world over from a killed owner, or a sandbox started again,
 * continues every invoice a client was told about: same cookies, same `req_id`s, same `Ref#`s, as
 * fragment.com outlives any one of its servers.
 * The file is a snapshot on its first line and, after it, one line per write with what changed
 * (`SimulatorRecords.ts`): an answer changes an invoice or two, and rewriting every kept invoice for
 * each (hundreds of kilobytes at a rush, thousands of writes) was most of the sandbox world's CPU.
 * Once the changes outweigh the snapshot, a new snapshot replaces the file (a temporary file, flushed,
 * then renamed). A last line cut short by a crash is ignored: its answer never left.
 */
import { readFileSync } from "node:fs"
import { appendFile, rename, writeFile } from "node:fs/promises"
import {
  type Change,
  countersOf,
  decodeChange,
  decodeSnapshot,
  invoiceRecord,
  restoreCounters,
  restoreRecords,
  sessionRecord
} from "./SimulatorRecords.ts"
import type { InvoiceStatus, SimInvoice, SimSession, SimulatorState } from "./SimulatorState.ts"

/** Finished invoices kept besides the open ones (a late confirm or state read of a recent purchase). */
const FINISHED_KEPT = 500
/** Search results kept (a search's recipient token is used by the init right after it). */
const RECIPIENTS_KEPT = 1000
/** Changes appended before a new snapshot, at least (else as much as the snapshot). */
const CHANGES_AT_LEAST = 1 << 20

const isOpen = (status: InvoiceStatus) => status === "created" || status === "linked" || status === "processing"

// An invoice's JSON, made again only when a field that changes did (compared field by field: this
// runs for every kept invoice on every write).
interface Made {
  readonly status: SimInvoice["status"]
  readonly bocAt: number | undefined
  readonly payer: string | undefined
  readonly payBefore: number | undefined
  readonly processingPolls: number
  readonly paidAt: number | undefined
  readonly json: string
}
const invoiceJsons = new WeakMap<SimInvoice, Made>()
const invoiceJson = (i: SimInvoice, bocAt: number | undefined): string => {
  const made = invoiceJsons.get(i)
  if (
    made !== undefined &&
    made.status === i.status &&
    made.bocAt === bocAt &&
    made.payer === i.payer &&
    made.payBefore === i.payBefore &&
    made.processingPolls === i.processingPolls &&
    made.paidAt === i.paidAt
  )
    return made.json
  const json = JSON.stringify(invoiceRecord(i, bocAt))
  const { status, payer, payBefore, processingPolls, paidAt } = i
  invoiceJsons.set(i, { status, bocAt, payer, payBefore, processingPolls, paidAt, json })
  return json
}

/** What the file keeps of the state: the open and the latest finished invoices, their sessions. */
const keptOf = (state: SimulatorState, issued: ReadonlyArray<string>) => {
  const all = [...state.invoices.values()]
  const latest = new Set<string | undefined>()
  for (const s of state.sessions.values()) latest.add(s.latest)
  // From the newest back: every open one and each session's latest, and the newest finished others.
  const invoices: Array<SimInvoice> = []
  let finished = FINISHED_KEPT
  for (let at = all.length - 1; at >= 0; at--) {
    const i = all[at]!
    if (isOpen(i.status) || latest.has(i.reqId)) invoices.push(i)
    else if (finished > 0) {
      finished--
      invoices.push(i)
    }
  }
  invoices.reverse()
  const ssids = new Set(issued)
  for (const i of invoices) ssids.add(i.ssid)
  const sessions: ReadonlyArray<SimSession> = [...state.sessions.values()].filter((s) => ssids.has(s.ssid))
  return { invoices, sessions }
}

/** What is in the file now (snapshot and changes together), to write only what differs. */
interface OnDisk {
  readonly invoices: Map<string, string>
  readonly sessions: Map<string, string>
  /** each signed message's number in the file */
  readonly bocs: Map<string, number>
  recipients: number
  counters: string
  /** bytes of the snapshot, of the changes after it */
  readonly snapshot: number
  changes: number
}

const recipientsJson = (entries: ReadonlyArray<readonly [string, string]>) =>
  JSON.stringify(entries.map(([token, username]) => ({ token, username })))

/** The snapshot's text, and what the file then holds. */
const snapshotOf = (state: SimulatorState, issued: ReadonlyArray<string>): { text: string; onDisk: OnDisk } => {
  const kept = keptOf(state, issued)
  const bocs = new Map<string, number>()
  const numbered = (boc: string) => {
    const known = bocs.get(boc)
    if (known !== undefined) return known
    bocs.set(boc, bocs.size)
    return bocs.size - 1
  }
  const invoices = new Map(
    kept.invoices.map((i) => [i.reqId, invoiceJson(i, i.boc === undefined ? undefined : numbered(i.boc))])
  )
  const sessions = new Map(kept.sessions.map((s) => [s.ssid, JSON.stringify(sessionRecord(s))]))
  const counters = JSON.stringify(countersOf(state, issued))
  const text =
    `{"invoices":[${[...invoices.values()].join(",")}],"bocs":${JSON.stringify([...bocs.keys()])},` +
    `"sessions":[${[...sessions.values()].join(",")}],` +
    `"recipients":${recipientsJson([...state.recipients.entries()].slice(-RECIPIENTS_KEPT))},${counters.slice(1)}`
  return {
    text,
    onDisk: { invoices, sessions, bocs, recipients: state.recipients.size, counters, snapshot: text.length, changes: 0 }
  }
}

/** The line of what changed since `onDisk` (undefined: nothing), and applies it to `onDisk` once written. */
const changeOf = (state: SimulatorState, issued: ReadonlyArray<string>, onDisk: OnDisk) => {
  const kept = keptOf(state, issued)
  const newBocs: Array<string> = []
  const numbered = (boc: string) => {
    const known = onDisk.bocs.get(boc)
    if (known !== undefined) return known
    const added = newBocs.indexOf(boc)
    if (added >= 0) return onDisk.bocs.size + added
    newBocs.push(boc)
    return onDisk.bocs.size + newBocs.length - 1
  }
  const invoices = new Map<string, string>()
  let stillKept = 0
  for (const i of kept.invoices) {
    const json = invoiceJson(i, i.boc === undefined ? undefined : numbered(i.boc))
    const before = onDisk.invoices.get(i.reqId)
    if (before !== undefined) stillKept++
    if (before !== json) invoices.set(i.reqId, json)
  }
  // Only when some invoice on disk is no longer kept is it looked for.
  const keptIds = stillKept === onDisk.invoices.size ? undefined : new Set(kept.invoices.map((i) => i.reqId))
  const dropped = keptIds === undefined ? [] : [...onDisk.invoices.keys()].filter((id) => !keptIds.has(id))
  const sessions = new Map<string, string>()
  for (const s of kept.sessions) {
    const json = JSON.stringify(sessionRecord(s))
    if (onDisk.sessions.get(s.ssid) !== json) sessions.set(s.ssid, json)
  }
  // Taken now: searches answered while this line is written are in the next one.
  const recipientsSize = state.recipients.size
  const recipients =
    recipientsSize === onDisk.recipients ? [] : [...state.recipients.entries()].slice(onDisk.recipients)
  const counters = JSON.stringify(countersOf(state, issued))
  const same = counters === onDisk.counters
  if (invoices.size === 0 && dropped.length === 0 && sessions.size === 0 && recipients.length === 0 && same)
    return undefined
  const line =
    `{"invoices":[${[...invoices.values()].join(",")}],"dropped":${JSON.stringify(dropped)},` +
    `"bocs":${JSON.stringify(newBocs)},"sessions":[${[...sessions.values()].join(",")}],` +
    `"recipients":${recipientsJson(recipients)}${same ? "" : `,"counters":${counters}`}}`
  const apply = () => {
    for (const [id, json] of invoices) onDisk.invoices.set(id, json)
    for (const id of dropped) onDisk.invoices.delete(id)
    for (const boc of newBocs) onDisk.bocs.set(boc, onDisk.bocs.size)
    for (const [ssid, json] of sessions) onDisk.sessions.set(ssid, json)
    onDisk.recipients = recipientsSize
    onDisk.counters = counters
    onDisk.changes += line.length + 1
  }
  return { line, apply }
}

export interface SimulatorStore {
  /** Restores the file's state into `state`: the issued sessions, or none when there is no (readable) file. */
  readonly load: (state: SimulatorState) => ReadonlyArray<string>
  /** Writes the state if it changed since the last write; resolves once it is on disk. */
  readonly save: (state: SimulatorState, issued: ReadonlyArray<string>) => Promise<void>
}

export const makeSimulatorStore = (file: string): SimulatorStore => {
  // Unknown (nothing written by this process yet, or a write failed): the next write is a snapshot.
  let onDisk: OnDisk | undefined
  // One write at a time. A save while a write is still waiting for its turn joins that write: it
  // looks at the state when it starts, so it holds this change too (a burst of answers costs one
  // write and one flush, not one each, and each answer still leaves only once it is on disk).
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
    const [first = "", ...rest] = text.split("\n")
    const snapshot = decodeSnapshot(first)
    if (snapshot._tag === "None") return []
    const bocs = [...(snapshot.value.bocs ?? [])]
    restoreRecords(state, snapshot.value, bocs)
    let issued = restoreCounters(state, snapshot.value)
    for (const line of rest) {
      if (line.length === 0) continue
      const change = decodeChange(line)
      // a line cut short by a crash: its answer never left, nothing after it was written
      if (change._tag === "None") break
      const c: Change = change.value
      bocs.push(...c.bocs)
      restoreRecords(state, c, bocs)
      for (const id of c.dropped) state.invoices.delete(id)
      if (c.counters !== undefined) issued = restoreCounters(state, c.counters)
    }
    return issued.filter((ssid) => state.sessions.has(ssid))
  }
  const writeSnapshot = async (state: SimulatorState, issued: ReadonlyArray<string>) => {
    onDisk = undefined
    const { text, onDisk: next } = snapshotOf(state, issued)
    await writeFile(`${file}.tmp`, `${text}\n`, { mode: 0o600, flush: true })
    await rename(`${file}.tmp`, file)
    onDisk = next
  }
  const write = async (state: SimulatorState, issued: ReadonlyArray<string>) => {
    if (onDisk === undefined) return writeSnapshot(state, issued)
    const change = changeOf(state, issued, onDisk)
    if (change === undefined) return
    if (onDisk.changes + change.line.length > Math.max(onDisk.snapshot, CHANGES_AT_LEAST))
      return writeSnapshot(state, issued)
    const known = onDisk
    onDisk = undefined
    await appendFile(file, `${change.line}\n`, { flush: true })
    change.apply()
    onDisk = known
  }
  const save = (state: SimulatorState, issued: ReadonlyArray<string>) => {
    if (waiting !== undefined) return waiting
    const next = queue
      .then(() => {
        // From here on the state is looked at: a later change needs a write of its own.
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
