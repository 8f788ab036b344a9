/**
 * "Near amount": two amounts close enough to be the same money (a bank fee, a typo, an offset of a few
 * so'm). Two rules on purpose, both here so neither is re-invented elsewhere:
 * - the duplicate hold stops an operator's approve on its own, so it is narrow: every false hit costs
 *   a second look, a miss may credit the same money twice, and it only compares one owner's credits;
 * - the candidate list only suggests open top-ups to an operator holding an unmatched bank payment,
 *   across all users, and never matches by itself, so it is wider: a missed candidate leaves the
 *   money unassigned, a wrong one is just not picked.
 */

export interface AmountTolerance {
  /** Share of the larger amount. */
  readonly ratio: number
  /** Never narrower than this, so small amounts still tolerate a fee. */
  readonly minUzs: number
}

/** The duplicate hold of a receipt top-up (`DuplicateReceipt`): 1 % of the larger amount, at least 1,000 so'm. */
export const DUPLICATE_TOLERANCE: AmountTolerance = { ratio: 0.01, minUzs: 1_000 }

/** Candidate top-ups for an unmatched bank payment (`PaymentCandidates`): 5 %, at least 1,000 so'm. */
export const CANDIDATE_TOLERANCE: AmountTolerance = { ratio: 0.05, minUzs: 1_000 }

/** True when `a` and `b` differ by no more than `tolerance` allows; symmetric. */
export const withinTolerance =
  (tolerance: AmountTolerance) =>
  (a: number, b: number): boolean =>
    Math.abs(a - b) <= Math.max(tolerance.minUzs, Math.ceil(Math.max(a, b) * tolerance.ratio))

/** Near enough to hold an approve as a possible repeat of a recent credit. */
export const isNearDuplicate = withinTolerance(DUPLICATE_TOLERANCE)

/** Near enough to show a top-up as a candidate for a bank payment. */
export const isNearCandidate = withinTolerance(CANDIDATE_TOLERANCE)
