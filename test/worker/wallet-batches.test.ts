/**
 * The core's batched hot-wallet payments (`WalletBatches`) on the real TON VM with blocks every
 * 300 ms and real PostgreSQL, from a V5R1 and from a Highload Wallet V3: N invoices paid by one
 * external message; a skipped action fails only its payments, which are paid once on retry; a crash
 * after the send and before the outcome is recorded is settled on chain from the stored batch and each
 * payment's `Ref#`, never paid twice.
 */
import { assert, describe, it } from "@effect/vitest"
import {
  type Nanoton,
  Blockchain,
  type PreparedBatch,
  type Wallet,
  type WalletVersion
} from "@resale/core/ports/Blockchain.ts"
import { WalletPayments } from "@resale/core/ports/WalletPayments.ts"
import { type BatchItem, WalletBatches, WalletBatchSettings } from "@resale/core/wallet/WalletBatches.ts"
import { PgConnection } from "@resale/store/PgConnection.ts"
import { PgWalletPayments } from "@resale/store/PgWalletPayments.ts"
import { deriveKeys, makeTonBlockchain, SandboxBlockchain, walletContract } from "@resale/ton"
import { sandboxClient } from "@resale/ton/SandboxBlockchain.ts"
import { mnemonicNew } from "@ton/crypto"
import { Address, beginCell } from "@ton/ton"
import { Context, Deferred, Duration, Effect, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { freshDatabase } from "./support/SharedWorld.ts"

const TON = 1_000_000_000n
const payload = (ref: string) =>
  beginCell().storeUint(0, 32).storeStringTail(`50 Telegram Stars \n\nRef#${ref}`).endCell().toBoc().toString("base64")
const MERCHANT = new Address(0, Buffer.alloc(32, 7)).toString({ bounceable: false, urlSafe: true })

const items = (prefix: string, amounts: ReadonlyArray<bigint>): Array<BatchItem> =>
  amounts.map((amount, i) => ({
    key: `${prefix}-${i}`,
    kind: "stars",
    reqId: `req-${prefix}-${i}`,
    ref: `${prefix}R${i}`,
    payTo: MERCHANT,
    amount: amount as Nanoton,
    validUntil: Math.floor(Date.now() / 1000) + 600,
    payload: payload(`${prefix}R${i}`)
  }))

/** A funded hot wallet of this version on the sandbox chain, and the records on a fresh database. */
const setup = (funds: bigint, version: WalletVersion = "v5r1") =>
  Effect.gen(function* () {
    const url = yield* freshDatabase
    const records = Context.get(
      yield* Layer.build(PgWalletPayments.layer.pipe(Layer.provide(Layer.fresh(PgConnection.layerFromUrl(url, 3))))),
      WalletPayments
    )
    const sql = Context.get(yield* Layer.build(Layer.fresh(PgConnection.layerFromUrl(url, 1))), SqlClient)
    const sandbox = yield* SandboxBlockchain
    const phrase = Redacted.make((yield* Effect.promise(() => mnemonicNew(24))).join(" "))
    const [key] = yield* deriveKeys(phrase)
    yield* sandbox.fund(
      walletContract(version, key!.key.publicKey, -239).address.toString({ bounceable: false }),
      funds as Nanoton
    )
    const wallet = yield* (yield* Blockchain).resolveWallet(phrase, { version })
    return { records, sql, sandbox, wallet }
  })

const batchesOver = (chain: Blockchain["Service"], records: WalletPayments["Service"], parallel = 1) =>
  Effect.map(
    Layer.build(
      WalletBatches.layer.pipe(
        Layer.provide(Layer.succeed(Blockchain)(chain)),
        Layer.provide(Layer.succeed(WalletPayments)(records)),
        Layer.provide(
          Layer.succeed(WalletBatchSettings)({
            confirmWithin: Duration.seconds(20),
            pollEvery: Duration.millis(100),
            parallel
          })
        )
      )
    ),
    (context) => Context.get(context, WalletBatches)
  )

/** Ref#s of every message that left the wallet for someone else (a highload batch also sends one to itself), one entry per message. */
const refsPaid = (sandbox: SandboxBlockchain["Service"], wallet: Wallet) =>
  Effect.map(
    Effect.promise(() => sandbox.emulator.getTransactions(Address.parse(wallet.address))),
    (txs) =>
      txs.flatMap((tx) =>
        tx.outMessages
          .values()
          .filter((m) => m.info.type === "internal" && !m.info.dest.equals(Address.parse(wallet.address)))
          .map((m) => /Ref#(\w+)/.exec(m.body.beginParse().skip(32).loadStringTail())?.[1] ?? "")
      )
  )

const Env = SandboxBlockchain.layerWith({ blockInterval: "300 millis", expiryMarginSeconds: 1, ttlSeconds: 5 })

describe.each(["v5r1", "highload-v3"] as const)(
  "batched hot-wallet payments from %s (sandbox chain, blocks every 300 ms, PostgreSQL)",
  (version) => {
    it.live(
      "a batch of 60 invoices is paid by one external message; asked again, nothing is paid twice",
      () =>
        Effect.gen(function* () {
          const { records, sandbox, sql, wallet } = yield* setup(1000n * TON, version)
          const chain = yield* Blockchain
          const batches = yield* batchesOver(chain, records)
          const batch = items(
            "a",
            Array.from({ length: 60 }, (_, i) => TON / 10n + BigInt(i))
          )
          const outcomes = yield* batches.pay(wallet, batch)
          assert.deepStrictEqual(
            outcomes.map((o) => o._tag),
            batch.map(() => "Paid")
          )
          const txHashes = new Set(outcomes.map((o) => (o._tag === "Paid" ? o.txHash : "")))
          assert.strictEqual(txHashes.size, 1, "one transaction paid them all")
          const rows = yield* sql<{
            state: string
            payments: number
            prepared: { queryId?: number }
          }>`SELECT state, payments, prepared FROM wallet_batches`
          assert.deepStrictEqual(
            rows.map((r) => [r.state, Number(r.payments), r.prepared.queryId]),
            [["executed", 60, version === "highload-v3" ? 0 : undefined]]
          )

          const again = yield* batches.pay(wallet, batch)
          assert.deepStrictEqual(
            again.map((o) => o._tag),
            batch.map(() => "Paid")
          )
          assert.deepStrictEqual((yield* refsPaid(sandbox, wallet)).toSorted(), batch.map((b) => b.ref).toSorted())
        }).pipe(Effect.provide(Env)),
      90_000
    )

    it.live(
      "funds short mid-batch: only the skipped payments fail, and they are paid once on retry",
      () =>
        Effect.gen(function* () {
          const { records, sandbox, sql, wallet } = yield* setup(3n * TON, version)
          // A node with a stale view of the balance lets the batch be signed; the wallet cannot cover all of it.
          const real = sandboxClient(sandbox.emulator, Effect.void, sandbox.blocks)
          const optimistic = makeTonBlockchain(
            {
              ...real,
              account: (address) =>
                Effect.map(real.account(address), (a) => ({ ...a, balance: a.balance + 1000n * TON }))
            },
            { expiryMarginSeconds: 1, ttlSeconds: 5 }
          )
          const batches = yield* batchesOver(optimistic, records)
          const batch = items("b", [TON, TON, 5n * TON, TON / 5n])
          const outcomes = yield* batches.pay(wallet, batch)
          assert.deepStrictEqual(
            outcomes.map((o) => o._tag),
            ["Paid", "Paid", "NotPaid", "Paid"]
          )
          const [failed] = yield* sql<{
            state: string
            error: string
          }>`SELECT state, error FROM wallet_payments WHERE key = 'b-2'`
          assert.strictEqual(failed?.state, "failed")
          assert.match(failed?.error ?? "", /skipped/)

          yield* sandbox.fund(wallet.address, (10n * TON) as Nanoton)
          const retried = yield* batches.pay(wallet, batch)
          assert.deepStrictEqual(
            retried.map((o) => o._tag),
            ["Paid", "Paid", "Paid", "Paid"]
          )
          assert.deepStrictEqual(
            (yield* refsPaid(sandbox, wallet)).toSorted(),
            batch.map((b) => b.ref).toSorted(),
            "each Ref# paid once"
          )
        }).pipe(Effect.provide(Env)),
      90_000
    )

    it.live(
      "a crash after the send, before the outcome is recorded: settled on chain by the stored batch and Ref#, never paid twice",
      () =>
        Effect.gen(function* () {
          const { records, sandbox, sql, wallet } = yield* setup(100n * TON, version)
          const chain = yield* Blockchain
          // The process dies right after the message went out.
          const crashing: Blockchain["Service"] = {
            ...chain,
            send: (p) => Effect.andThen(chain.send(p), Effect.die("process killed"))
          }
          const batch = items("c", [TON / 2n, TON / 3n, TON / 4n])
          const exit = yield* Effect.exit((yield* batchesOver(crashing, records)).pay(wallet, batch))
          assert.strictEqual(exit._tag, "Failure")
          const [open] = yield* sql<{ state: string }>`SELECT state FROM wallet_batches`
          assert.strictEqual(open?.state, "signed", "stored before the send, its outcome never recorded")

          // A new process: the same keys again. The open batch is looked up first; nothing is signed anew.
          const restarted = yield* batchesOver(
            makeTonBlockchain(sandboxClient(sandbox.emulator, Effect.void, sandbox.blocks), { expiryMarginSeconds: 1 }),
            records
          )
          const outcomes = yield* Effect.gen(function* () {
            while (true) {
              const answer = yield* restarted.pay(wallet, batch)
              if (answer.every((o) => o._tag !== "Open")) return answer
              yield* Effect.sleep("100 millis")
            }
          })
          assert.deepStrictEqual(
            outcomes.map((o) => o._tag),
            ["Paid", "Paid", "Paid"]
          )
          assert.deepStrictEqual(
            (yield* refsPaid(sandbox, wallet)).toSorted(),
            batch.map((b) => b.ref).toSorted(),
            "each Ref# paid once"
          )
          const batches = yield* sql<{ state: string }>`SELECT state FROM wallet_batches`
          assert.deepStrictEqual(
            batches.map((b) => b.state),
            ["executed"]
          )
        }).pipe(Effect.provide(Env)),
      90_000
    )
  }
)

/** Batches that pass the send only once `count` distinct messages reached it: proof that they were open together. */
const sendTogether = (chain: Blockchain["Service"], count: number) =>
  Effect.map(Deferred.make<void>(), (all): Blockchain["Service"] => {
    const seen = new Set<string>()
    return {
      ...chain,
      send: (prepared) =>
        Effect.gen(function* () {
          seen.add(prepared.boc)
          if (seen.size >= count) yield* Deferred.succeed(all, undefined)
          yield* Deferred.await(all).pipe(
            Effect.timeoutOrElse({
              duration: "30 seconds",
              orElse: () => Effect.die(`only ${seen.size} messages reached the send`)
            })
          )
          return yield* chain.send(prepared)
        })
    }
  })

describe("Highload Wallet V3 with several batches in flight (HOT_WALLET_PARALLEL; sandbox chain, PostgreSQL)", () => {
  it.live(
    "three batches open at once under three query ids, a fourth refused until one settles; each Ref# paid once",
    () =>
      Effect.gen(function* () {
        const { records, sandbox, sql, wallet } = yield* setup(100n * TON, "highload-v3")
        const together = yield* sendTogether(yield* Blockchain, 3)
        const batches = yield* batchesOver(together, records, 3)
        assert.strictEqual(batches.parallel(wallet), 3)
        const groups = ["p", "q", "r", "s"].map((prefix) => items(prefix, [TON / 10n, TON / 20n]))
        const outcomes = yield* Effect.forEach(groups, (group) => batches.pay(wallet, group), {
          concurrency: "unbounded"
        })
        // No batch settled before three were open together: exactly one group found every slot taken.
        const refused = outcomes.filter((o) => o.every((x) => x._tag === "Open"))
        assert.strictEqual(refused.length, 1)
        assert.match(
          refused[0]![0]!._tag === "Open" ? refused[0]![0]!.message : "",
          /3 batches of this wallet are still open/
        )
        assert.strictEqual(outcomes.filter((o) => o.every((x) => x._tag === "Paid")).length, 3)
        const rows = yield* sql<{
          state: string
          query_id: string
          slot: number
        }>`SELECT state, query_id, slot FROM wallet_batches ORDER BY id`
        assert.deepStrictEqual(
          rows.map((r) => r.state),
          ["executed", "executed", "executed"]
        )
        assert.strictEqual(new Set(rows.map((r) => String(r.query_id))).size, 3, "each message its own query id")
        assert.deepStrictEqual(rows.map((r) => Number(r.slot)).toSorted(), [0, 1, 2])

        // The refused group is paid once a slot is free; asked again, nothing is paid twice.
        const late = groups[outcomes.indexOf(refused[0]!)]!
        assert.deepStrictEqual(
          (yield* batches.pay(wallet, late)).map((o) => o._tag),
          ["Paid", "Paid"]
        )
        for (const group of groups)
          assert.deepStrictEqual(
            (yield* batches.pay(wallet, group)).map((o) => o._tag),
            ["Paid", "Paid"]
          )
        assert.deepStrictEqual(
          (yield* refsPaid(sandbox, wallet)).toSorted(),
          groups
            .flat()
            .map((b) => b.ref)
            .toSorted(),
          "each Ref# paid once"
        )
      }).pipe(Effect.provide(Env)),
    90_000
  )

  it.live(
    "a crash with three batches in flight: a new process settles each by its message and Ref# before anything is signed again",
    () =>
      Effect.gen(function* () {
        const { records, sandbox, sql, wallet } = yield* setup(100n * TON, "highload-v3")
        const chain = yield* Blockchain
        // The process dies right after each message went out, all three open together.
        const together = yield* sendTogether(chain, 3)
        const crashing: Blockchain["Service"] = {
          ...together,
          send: (p) => Effect.andThen(together.send(p), Effect.die("process killed"))
        }
        const dying = yield* batchesOver(crashing, records, 3)
        const groups = ["x", "y", "z"].map((prefix) => items(prefix, [TON / 2n, TON / 3n]))
        const exits = yield* Effect.forEach(groups, (group) => Effect.exit(dying.pay(wallet, group)), {
          concurrency: "unbounded"
        })
        assert.deepStrictEqual(
          exits.map((e) => e._tag),
          ["Failure", "Failure", "Failure"]
        )
        const open = yield* sql<{ state: string }>`SELECT state FROM wallet_batches`
        assert.deepStrictEqual(
          open.map((b) => b.state),
          ["signed", "signed", "signed"],
          "stored before the send, outcomes never recorded"
        )

        const restarted = yield* batchesOver(
          makeTonBlockchain(sandboxClient(sandbox.emulator, Effect.void, sandbox.blocks), { expiryMarginSeconds: 1 }),
          records,
          3
        )
        const outcomes = yield* Effect.forEach(
          groups,
          (group) =>
            Effect.gen(function* () {
              while (true) {
                const answer = yield* restarted.pay(wallet, group)
                if (answer.every((o) => o._tag !== "Open")) return answer
                yield* Effect.sleep("100 millis")
              }
            }),
          { concurrency: "unbounded" }
        )
        assert.deepStrictEqual(
          outcomes.map((o) => o.map((x) => x._tag)),
          groups.map(() => ["Paid", "Paid"])
        )
        assert.deepStrictEqual(
          (yield* refsPaid(sandbox, wallet)).toSorted(),
          groups
            .flat()
            .map((b) => b.ref)
            .toSorted(),
          "each Ref# paid once"
        )
        const settled = yield* sql<{ state: string }>`SELECT state FROM wallet_batches`
        assert.deepStrictEqual(
          settled.map((b) => b.state),
          ["executed", "executed", "executed"],
          "nothing signed anew"
        )
      }).pipe(Effect.provide(Env)),
    90_000
  )

  it.live(
    "a V5R1 keeps one message in flight whatever HOT_WALLET_PARALLEL says: its seqno allows no more",
    () =>
      Effect.gen(function* () {
        const { records, wallet } = yield* setup(10n * TON, "v5r1")
        const chain = yield* Blockchain
        assert.strictEqual((yield* batchesOver(chain, records, 3)).parallel(wallet), 1)
        const prepare = (prefix: string) =>
          chain.prepareBatch(
            wallet,
            items(prefix, [TON / 10n]).map((i) => ({
              to: i.payTo,
              amount: i.amount,
              payload: i.payload,
              validUntil: i.validUntil
            }))
          )
        const record = (prefix: string, prepared: PreparedBatch) =>
          records.record(
            chain.network,
            prepared,
            items(prefix, [TON / 10n]).map((i) => ({ ...i, walletAddress: wallet.address })),
            new Date(),
            3
          )
        const first = yield* prepare("v")
        yield* record("v", first)
        // The process's own guard let go: only the records stand in the way of a second message.
        yield* chain.discard(first)
        const refused = yield* Effect.flip(record("w", yield* prepare("w")))
        assert.strictEqual(refused._tag, "WalletBatchBusy")
        assert.match(refused.message, /Another batch of this wallet is still open/)
      }).pipe(Effect.provide(Env)),
    90_000
  )
})
