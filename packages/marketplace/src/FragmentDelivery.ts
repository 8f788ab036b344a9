/**
 * The two delivery calls of one session after the money left:
 * - `report`: the signed message goes to Fragment's `confirm_method` (`confirmReq` with `id`,
 *   `boc`, and `account`/`device` when the payer is known). Its answer is the invoice's own
 *   evidence: `accepted`, `refused` (Fragment answered an error), or `unsent` (no answer; try again).
 * - `readState`: the page's `update*State` as every public client sends it (`mode`, `lv`, `dh`; no
 *   invoice id, since none is observed): Fragment answers for the session's latest purchase only, so
 *   the caller reads it only while it holds the session for that very invoice.
 */
import { Effect } from "effect"
import type { ConfirmOutcome, ConfirmRequest, MarketplaceError } from "@resale/core/ports/Marketplace.ts"
import { isTransient } from "@resale/core/ports/Marketplace.ts"
import { decodeAnswer, StateAnswer } from "./FragmentAnswers.ts"
import { flowOf } from "./FragmentFlows.ts"
import type { InvoiceMemo } from "./FragmentPurchase.ts"
import { stateNonce } from "./FragmentPurchase.ts"
import type { FormFields, FragmentTransport } from "./FragmentTransport.ts"
import { accountJson, deviceJson } from "./TonConnect.ts"

interface Tracked {
  readonly memo: InvoiceMemo
  mode: string
}

const MAX_TRACKED = 10_000

export interface Reported {
  readonly outcome: ConfirmOutcome
  /** Fragment's short answer (or why there was none) */
  readonly note: string
}

export const makeFragmentDelivery = (transport: FragmentTransport) => {
  // invoices quoted by this process; after a restart a fresh nonce and the req id still identify it
  const tracked = new Map<string, Tracked>()

  const remember = (reqId: string, memo: InvoiceMemo) => {
    // bounded: the oldest memo goes first (a later confirm still works with a fresh nonce)
    if (tracked.size >= MAX_TRACKED) tracked.delete(tracked.keys().next().value ?? "")
    tracked.set(reqId, { memo, mode: "new" })
  }

  const trackedOf = (reqId: string): Tracked => {
    const known = tracked.get(reqId)
    if (known !== undefined) return known
    const fresh: Tracked = {
      memo: { dh: stateNonce(), confirmMethod: "confirmReq", confirmParams: { id: reqId } },
      mode: "new"
    }
    tracked.set(reqId, fresh)
    return fresh
  }

  const report = Effect.fn("FragmentDelivery.report")(function* (request: ConfirmRequest & { readonly boc: string }) {
    const flow = flowOf(request.kind)
    const entry = trackedOf(request.reqId)
    const fields: Record<string, string | number> = { boc: request.boc, device: deviceJson() }
    for (const [key, value] of Object.entries(entry.memo.confirmParams)) {
      if (typeof value === "string" || typeof value === "number") fields[key] = value
    }
    if (request.payer !== undefined) fields["account"] = accountJson(request.payer)
    const answered = yield* Effect.result(transport.call(flow.page, entry.memo.confirmMethod, fields))
    if (answered._tag === "Success") {
      const reported: Reported = { outcome: "accepted", note: `${entry.memo.confirmMethod} answered ok` }
      return reported
    }
    const error: MarketplaceError = answered.failure
    yield* Effect.logWarning("Fragment did not accept the signed message; delivery is not proven by it").pipe(
      Effect.annotateLogs({ session: transport.session, reqId: request.reqId, reason: error.reason })
    )
    const reported: Reported = { outcome: isTransient(error) ? "unsent" : "refused", note: error.message }
    return reported
  })

  /** One look at the session's page state; `mode` "done" means its latest purchase was delivered. */
  const readState = Effect.fn("FragmentDelivery.readState")(function* (request: ConfirmRequest) {
    const flow = flowOf(request.kind)
    const entry = trackedOf(request.reqId)
    const fields: FormFields =
      flow.kind === "ton" ? { mode: entry.mode } : { mode: entry.mode, lv: "false", dh: entry.memo.dh }
    const state = yield* transport
      .call(flow.page, flow.stateMethod, fields)
      .pipe(Effect.flatMap(decodeAnswer(StateAnswer, flow.stateMethod)))
    if (state.mode !== undefined) entry.mode = state.mode
    if (state.mode === "done") tracked.delete(request.reqId)
    return entry.mode
  })

  const forget = (reqId: string) => {
    tracked.delete(reqId)
  }

  return { remember, report, readState, forget }
}
