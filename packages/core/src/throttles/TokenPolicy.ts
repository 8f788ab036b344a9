/**
 * How wrong tokens of one client address are answered, for every guarded secret (the operator token,
 * the metrics token): a few are free (typos), then every further one blocks the address for a
 * doubling time, at most a minute, so guessing runs at about one try a minute while the operator's
 * own address is never shut out for long. A right token clears the address.
 */
export const FREE_FAILURES = 5
export const FIRST_BLOCK_SECONDS = 5
export const MAX_BLOCK_SECONDS = 60
/** Failures older than this are forgotten. */
export const FORGET_AFTER_MS = 15 * 60 * 1000

/** The seconds an address is blocked for right after its `failures`-th wrong token (0: still free). */
export const blockSecondsAfter = (failures: number): number => {
  const over = failures - FREE_FAILURES
  return over < 0 ? 0 : Math.min(MAX_BLOCK_SECONDS, FIRST_BLOCK_SECONDS * 2 ** over)
}

/** The whole seconds still to wait at `now` after `failures` wrong tokens, the last at `lastFailureAt`. */
export const secondsLeft = (failures: number, lastFailureAt: number, now: number): number => {
  const blockedUntil = lastFailureAt + blockSecondsAfter(failures) * 1000
  return blockedUntil <= now ? 0 : Math.ceil((blockedUntil - now) / 1000)
}
