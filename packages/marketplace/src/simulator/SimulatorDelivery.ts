/**
 * The simulated delivery side: `confirmReq` (the signed message reported for an invoice) and the
 * page state. As every public client and a captured browser request show, `update*State` carries no
 * invoice id: it answers about the cookie session's LATEST invoice, whatever `id` or `dh` it is sent.
 * So a client reading it for an older invoice after the session opened another one reads the wrong
 * purchase, as it would on fragment.com. State modes go new -> processing -> done once paid.
 */
import { Cell, loadMessage } from "@ton/core"
import type { Answer, ApiContext, Fields } from "./SimulatorApi.ts"
import type { SimInvoice } from "./SimulatorState.ts"

const isPaid = async (ctx: ApiContext, invoice: SimInvoice): Promise<boolean> => {
  // assumption switch: Fragment credits only invoices whose signed message was reported
  if (ctx.state.switches.requireConfirm && invoice.boc === undefined) return false
  if (ctx.state.paidRefs.has(invoice.ref)) return true
  if (ctx.paymentSeen !== undefined) {
    // sandbox: only money that reached the wallet counts, a reported boc does not
    return ctx.paymentSeen(invoice.ref, {
      amount: invoice.amount,
      address: ctx.walletAddress,
      comment: invoice.comment,
      ...(invoice.payer === undefined ? {} : { from: invoice.payer }),
      ...(invoice.payBefore === undefined ? {} : { before: invoice.payBefore })
    })
  }
  return invoice.boc !== undefined
}

const poll = async (ctx: ApiContext, invoice: SimInvoice): Promise<Answer> => {
  // a cancelled purchase leaves the page at a fresh form
  if (invoice.status === "cancelled") return { ok: true, need_update: false, mode: "new" }
  if ((invoice.status === "created" || invoice.status === "linked") && (await isPaid(ctx, invoice))) {
    invoice.status = "processing"
    invoice.paidAt = Date.now()
    return { ok: true, need_update: true, mode: "processing" }
  }
  const held = ctx.state.magic.holdsDelivery(invoice, invoice.paidAt ?? 0, Date.now())
  if (invoice.status === "processing" && !ctx.state.switches.neverFinish && !held) invoice.status = "done"
  if (invoice.status === "done") return { ok: true, need_update: false, mode: "done" }
  return { ok: true, need_update: true, mode: invoice.status === "processing" ? "processing" : "new" }
}

/** update*State of any page: the session's latest invoice (the `id` field, if any, is ignored). */
export const pageState = async (ctx: ApiContext): Promise<Answer> => {
  // reading the page state re-syncs it after a "Price was changed"
  ctx.session.needsResync = false
  const latest = ctx.session.latest === undefined ? undefined : ctx.state.invoices.get(ctx.session.latest)
  if (latest === undefined) return { ok: true, need_update: false, mode: "new" }
  return poll(ctx, latest)
}

// A batch's signed message is reported once per invoice it pays: it is parsed once (the latest few kept),
// with the wallet it goes to (raw address) when it is an external message. Every invoice it pays keeps
// that one string (not its own copy of tens of kilobytes), which the state file relies on.
const readable = new Map<string, { readonly boc: string; readonly wallet: string | undefined }>()
const remember = (boc: string, wallet: string | undefined) => {
  readable.set(boc, { boc, wallet })
  if (readable.size > 16) readable.delete(readable.keys().next().value!)
}

const walletOf = (cell: Cell): string | undefined => {
  try {
    const message = loadMessage(cell.beginParse())
    return message.info.type === "external-in" ? message.info.dest.toRawString().toLowerCase() : undefined
  } catch {
    // a cell that is no message: nothing to compare
    return undefined
  }
}

export const confirmReq = (ctx: ApiContext, fields: Fields): Answer => {
  const invoice = ctx.state.invoices.get(fields["id"] ?? "")
  if (invoice === undefined || invoice.ssid !== ctx.session.ssid) return { error: "Request not found." }
  if (ctx.state.switches.confirmError || ctx.state.magic.refusesConfirm(invoice))
    return { error: "Transaction not found." }
  const boc = fields["boc"] ?? ""
  if (!readable.has(boc)) {
    let cell: Cell
    try {
      cell = Cell.fromBoc(Buffer.from(boc, "base64"))[0]!
    } catch {
      // a boc that is not a BOC is refused like Fragment refuses garbage
      return { error: "Invalid transaction." }
    }
    remember(boc, walletOf(cell))
  }
  // a message signed by another wallet than the one the transaction was made for pays nothing here
  const known = readable.get(boc)!
  if (invoice.payer !== undefined && known.wallet !== undefined && known.wallet !== invoice.payer)
    return { error: "Invalid transaction." }
  invoice.boc = known.boc
  return { ok: true }
}
