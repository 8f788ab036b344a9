/**
 * The checks every signed wallet message makes before it is signed (a single transfer, a batch, a
 * Highload batch): the balance covers the amounts and the fee reserve, and the message's deadline is
 * the earliest of its requests' and ours. One home, so the three signers refuse alike.
 */
import { formatTon } from "@resale/core/money/Nanoton.ts"
import { BlockchainError } from "@resale/core/ports/Blockchain.ts"
import { Effect } from "effect"

/** Transactions asked per page when a wallet's history is read. */
export const HISTORY_PAGE = 20

export const chainFail = (reason: BlockchainError["reason"], message: string, exitCode?: number) =>
  new BlockchainError({ reason, message, ...(exitCode === undefined ? {} : { exitCode }) })

/** Fails `InsufficientFunds` unless the balance covers what is sent plus what the fees may take. */
export const ensureFunds = (balance: bigint, total: bigint, keep: bigint): Effect.Effect<void, BlockchainError> =>
  balance < total + keep
    ? Effect.fail(
        chainFail(
          "InsufficientFunds",
          `The wallet holds ${formatTon(balance)} TON, less than ${formatTon(total)} TON plus ${formatTon(keep)} TON for fees`
        )
      )
    : Effect.void

/**
 * The message's `valid_until`: our time to live, shortened to the earliest request's own deadline.
 * A deadline already past fails `Rejected` with the wallet's own exit code for it (36).
 */
export const messageDeadline = (
  now: number,
  ttl: number,
  requests: ReadonlyArray<{ readonly validUntil?: number | undefined }>,
  expired: string
): Effect.Effect<number, BlockchainError> => {
  const validUntil = requests.reduce((min, r) => Math.min(min, r.validUntil ?? Number.MAX_SAFE_INTEGER), now + ttl)
  return validUntil <= now ? Effect.fail(chainFail("Rejected", expired, 36)) : Effect.succeed(validUntil)
}
