import type { Topup } from "../topups/Topup.ts"
import { isNearCandidate } from "../topups/NearAmount.ts"

/** How many candidates an operator is shown per unmatched payment. */
export const CANDIDATES_SHOWN = 5

export interface PaymentCandidate {
  readonly topup: Topup
  /** payable - paid: positive when the payer sent less than the top-up asks. */
  readonly difference: number
}

/**
 * Open top-ups that may be the ones a bank payment of `amountUzs` was meant for: the requested amount
 * exactly (the payer left out the offset) or a payable amount near it (`CANDIDATE_TOLERANCE`);
 * closest first, then newest. A hint for an operator, never a match.
 */
export const paymentCandidates = (amountUzs: number, open: ReadonlyArray<Topup>): ReadonlyArray<PaymentCandidate> =>
  open
    .filter((t) => t.requestedUzs === amountUzs || isNearCandidate(amountUzs, t.payableUzs))
    .map((topup) => ({ topup, difference: topup.payableUzs - amountUzs }))
    .sort((a, b) => Math.abs(a.difference) - Math.abs(b.difference) || b.topup.id - a.topup.id)
    .slice(0, CANDIDATES_SHOWN)
