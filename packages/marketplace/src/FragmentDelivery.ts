/**
 * Delivery check after the money left: report the signed message to Fragment (`confirmReq`,
 * once per invoice and process) and read the page state once (new -> processing -> done).
 * `confirmReq` failures are logged, not raised: the payment is on chain either way and the state
 * poll (plus the on-chain Ref# check done by the caller) decides.
 */
import { Effect } from "effect"
import {
  type ConfirmRequest,
  Delivered,
  type DeliveryState,
  Pending
} from "@resale/core/ports/Marketplace.ts"
import { decodeAnswer, StateAnswer } from "./FragmentAnswers.ts"
import { flowOf } from "./FragmentFlows.ts"
import type { InvoiceMemo } from "./FragmentPurchase.ts"
import { stateNonce } from "./FragmentPurchase.ts"
import type { FormFields, FragmentTransport } from "./FragmentTransport.ts"
import { accountJson, deviceJson } from "./TonConnect.ts"

interface Tracked {
  readonly memo: InvoiceMemo
  mode: string
  reported: boolean
}

const MAX_TRACKED = 10_000

export const makeFragmentDelivery = (transport: FragmentTransport) => {
  // invoices quoted by this process; after a restart a fresh nonce and the req id still identify it
  const tracked = new Map<string, Tracked>()

  const remember = (reqId: string, memo: InvoiceMemo) => {
    // bounded: the oldest memo goes first (a later confirm still works with a fresh nonce)
    if (tracked.size >= MAX_TRACKED) tracked.delete(tracked.keys().next().value ?? "")
    tracked.set(reqId, { memo, mode: "new", reported: false })
  }

  const trackedOf = (reqId: string): Tracked => {
    const known = tracked.get(reqId)
    if (known !== undefined) return known
    const fresh: Tracked = {
      memo: { dh: stateNonce(), confirmMethod: "confirmReq", confirmParams: { id: reqId } },
      mode: "new",
      reported: false
    }
    tracked.set(reqId, fresh)
    return fresh
  }

  const report = Effect.fn("FragmentDelivery.report")(function*(request: ConfirmRequest, entry: Tracked) {
    const flow = flowOf(request.kind)
    const fields: Record<string, string | number> = { boc: request.boc ?? "", device: deviceJson() }
    for (const [key, value] of Object.entries(entry.memo.confirmParams)) {
      if (typeof value === "string" || typeof value === "number") fields[key] = value
    }
    if (request.payer !== undefined) fields["account"] = accountJson(request.payer)
    yield* transport.call(flow.page, entry.memo.confirmMethod, fields).pipe(
      Effect.tap(() => Effect.sync(() => { entry.reported = true })),
      Effect.catch((error) =>
        Effect.logWarning("Fragment confirmReq failed; delivery is still checked by state", {
          reqId: request.reqId,
          reason: error.reason
        })
      )
    )
  })

  const confirm = Effect.fn("FragmentDelivery.confirm")(function*(request: ConfirmRequest) {
    const flow = flowOf(request.kind)
    const entry = trackedOf(request.reqId)
    if (request.boc !== undefined && !entry.reported) yield* report(request, entry)
    // `id` is our addition to the page's fields: it pins the invoice when one session has several
    const fields: FormFields = flow.kind === "ton"
      ? { mode: entry.mode, id: request.reqId }
      : { mode: entry.mode, lv: "false", dh: entry.memo.dh, id: request.reqId }
    const state = yield* transport.call(flow.page, flow.stateMethod, fields).pipe(
      Effect.flatMap(decodeAnswer(StateAnswer, flow.stateMethod))
    )
    if (state.mode !== undefined) entry.mode = state.mode
    if (state.mode === "done") {
      tracked.delete(request.reqId)
      return Delivered(request.reqId, request.ref)
    }
    const pending: DeliveryState = Pending(request.reqId, request.ref, entry.mode)
    return pending
  })

  const forget = (reqId: string) => {
    tracked.delete(reqId)
  }

  return { remember, confirm, forget }
}
