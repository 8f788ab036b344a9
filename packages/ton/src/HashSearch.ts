/**
 * Finds a wallet's transactions whose external-in message has a given normalized hash, for a message
 * watched until it settles. A watched message is looked for every poll; each look reads only the
 * transactions newer than the previous complete look (the history below them is the same, and was
 * searched already), instead of every transaction since the message was made: a Highload wallet's
 * history holds a batch's `internal_transfer` with hundreds of out messages, which the node
 * serializes and we parse again on every poll otherwise.
 */
import type { BlockchainError } from "@resale/core/ports/Blockchain.ts"
import type { Address, Transaction } from "@ton/ton"
import { Effect } from "effect"
import type { ChainClient } from "./ChainClient.ts"
import { normalizedHash } from "./Transfers.ts"
import { HISTORY_PAGE as PAGE } from "./WalletChecks.ts"

export interface HashSearch {
  readonly found: ReadonlyArray<Transaction>
  /** The history was read down to `since` (or its beginning). */
  readonly complete: boolean
  /** Logical time of the newest transaction read (0 when none). */
  readonly newest: bigint
}

/** What an earlier complete look saw: its matches and the newest transaction it read. */
interface Looked {
  readonly found: ReadonlyArray<Transaction>
  readonly newest: bigint
}

/** Messages watched at once are few (one per batch in flight); older looks are dropped first. */
const REMEMBERED = 256

/** Transactions whose normalized hash is kept: a few pages of every wallet watched at once. */
const REMEMBERED_HASHES = 4_096

/** A first page this small usually holds everything new since the previous look (polls are seconds apart). */
const NEWER_PAGE = 5

export const makeHashSearch = (client: ChainClient, maxPages: number) => {
  const looks = new Map<string, Looked>()

  const remember = (key: string, look: Looked) => {
    looks.delete(key)
    looks.set(key, look)
    if (looks.size > REMEMBERED) looks.delete(looks.keys().next().value!)
  }

  // A transaction's normalized hash, by the transaction's own hash: a first look reads a whole page,
  // and the hash is a cell built and hashed in JavaScript (0.1-0.2 ms), for the same transactions
  // every poll and every message of the wallet.
  const normalized = new Map<string, string | undefined>()
  const normalizedHashOf = (tx: Transaction): string | undefined => {
    const id = tx.hash().toString("hex")
    if (normalized.has(id)) return normalized.get(id)
    const value = tx.inMessage == null ? undefined : normalizedHash(tx.inMessage)
    normalized.set(id, value)
    if (normalized.size > REMEMBERED_HASHES) normalized.delete(normalized.keys().next().value!)
    return value
  }

  /** Every transaction of `wallet` since `since` whose external-in message has this normalized hash. */
  const findByHash = (wallet: Address, hash: string, since: number): Effect.Effect<HashSearch, BlockchainError> =>
    Effect.gen(function* () {
      const key = `${wallet.toRawString()} ${hash}`
      const earlier = looks.get(key)
      const found: Array<Transaction> = []
      let before: { lt: bigint; hash: Buffer } | undefined
      let newest: bigint | undefined
      const done = (complete: boolean): HashSearch => {
        const all = earlier === undefined ? found : [...found, ...earlier.found]
        // Together the two looks cover the history up to the newer of their newest transactions.
        const top =
          newest === undefined || (earlier !== undefined && earlier.newest > newest)
            ? (earlier?.newest ?? newest ?? 0n)
            : newest
        const look = { found: all, complete, newest: top }
        if (complete) remember(key, look)
        return look
      }
      for (let page = 0; page < maxPages; page++) {
        const limit = earlier !== undefined && page === 0 ? NEWER_PAGE : PAGE
        const txs = yield* client.transactions(wallet, { limit, ...(before === undefined ? {} : { before }) })
        newest ??= txs[0]?.lt
        for (const tx of txs) {
          // Reached what the earlier complete look read: nothing older is new.
          if (earlier !== undefined && tx.lt <= earlier.newest) return done(true)
          if (tx.inMessage != null && normalizedHashOf(tx) === hash) found.push(tx)
        }
        const last = txs.at(-1)
        if (txs.length < limit || last === undefined || last.now < since) return done(true)
        before = { lt: last.lt, hash: last.hash() }
      }
      return done(false)
    })

  return findByHash
}
