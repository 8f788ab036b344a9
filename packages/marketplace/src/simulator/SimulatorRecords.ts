/**
 * The records of the sandbox Fragment's state file (`SimulatorStore.ts`), snake_case as the product's
 * JSON: a snapshot (the file's first line) and the changes appended after it, one per line. Signed
 * messages are numbered in the file (`bocs`, each invoice's `boc_at`): the snapshot's first, then each
 * change's new ones after them, so a batch's message is on disk once however many invoices it paid.
 */
import { Schema } from "effect"
import type { SimInvoice, SimSession, SimulatorState } from "./SimulatorState.ts"

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
  /** number of the signed message in the file */
  boc_at: Schema.optionalKey(Schema.Number),
  payer: Schema.optionalKey(Schema.String),
  pay_before: Schema.optionalKey(Schema.Number),
  processing_polls: Schema.Number,
  paid_at: Schema.NullOr(Schema.Number)
})

const Recipient = Schema.Struct({ token: Schema.String, username: Schema.String })

/** What is not a session, an invoice, a message or a recipient. */
const Counters = {
  /** the sessions handed out as cookies, the primary first */
  issued: Schema.Array(Schema.String),
  next_req: Schema.Number,
  drop_refs: Schema.Array(Schema.String),
  drop_next: Schema.Boolean
}

const Snapshot = Schema.Struct({
  ...Counters,
  sessions: Schema.Array(Session),
  invoices: Schema.Array(Invoice),
  /** the signed messages the invoices point to, numbered from 0 */
  bocs: Schema.optionalKey(Schema.Array(Schema.String)),
  recipients: Schema.Array(Recipient)
})
export type Snapshot = typeof Snapshot.Type

/** A change appended after the snapshot: what changed since the line before. */
const Change = Schema.Struct({
  invoices: Schema.Array(Invoice),
  /** invoices no longer kept (finished long ago) */
  dropped: Schema.Array(Schema.String),
  /** new signed messages, numbered after every earlier one */
  bocs: Schema.Array(Schema.String),
  sessions: Schema.Array(Session),
  /** new recipients */
  recipients: Schema.Array(Recipient),
  counters: Schema.optionalKey(Schema.Struct(Counters))
})
export type Change = typeof Change.Type

export const decodeSnapshot = Schema.decodeUnknownOption(Schema.fromJsonString(Snapshot))
export const decodeChange = Schema.decodeUnknownOption(Schema.fromJsonString(Change))

export const sessionRecord = (s: SimSession): Snapshot["sessions"][number] => ({
  ssid: s.ssid,
  token: s.token,
  ton_token: s.tonToken,
  hash: s.hash,
  latest: s.latest ?? null,
  needs_resync: s.needsResync
})

export const invoiceRecord = (i: SimInvoice, bocAt: number | undefined): Snapshot["invoices"][number] => ({
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

export const countersOf = (state: SimulatorState, issued: ReadonlyArray<string>): Change["counters"] => {
  const magic = state.magic.persisted()
  return { issued: [...issued], next_req: state.nextReq, drop_refs: magic.dropRefs, drop_next: magic.dropNext }
}

/**
 * Puts records back into `state` (later ones replace earlier ones); `bocs` is every signed message
 * numbered so far in the file.
 */
export const restoreRecords = (
  state: SimulatorState,
  records: Pick<Snapshot, "sessions" | "invoices" | "recipients">,
  bocs: ReadonlyArray<string>
): void => {
  for (const s of records.sessions) {
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
  for (const i of records.invoices) {
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
      boc: i.boc ?? (i.boc_at === undefined ? undefined : bocs[i.boc_at]),
      ...(i.payer === undefined ? {} : { payer: i.payer }),
      ...(i.pay_before === undefined ? {} : { payBefore: i.pay_before }),
      processingPolls: i.processing_polls,
      ...(i.paid_at === null ? {} : { paidAt: i.paid_at })
    }
    state.invoices.set(invoice.reqId, invoice)
  }
  for (const r of records.recipients) state.recipients.set(r.token, r.username)
}

/** The counters back into `state`; the issued sessions that exist. */
export const restoreCounters = (state: SimulatorState, counters: NonNullable<Change["counters"]>) => {
  state.nextReq = Math.max(state.nextReq, counters.next_req)
  state.magic.restore({ dropRefs: counters.drop_refs, dropNext: counters.drop_next })
  return counters.issued
}
