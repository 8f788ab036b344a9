/**
 * Two and four workers on one PostgreSQL database over 100 orders: every order is executed exactly
 * once (one charge, no refund, one payment on chain or one gift sent), whichever worker took it.
 * Two workers share one Fragment cookie session (their purchases strictly one at a time across
 * processes); four run with four sessions side by side, as several FRAGMENT_COOKIES_* would.
 */
import { assert, describe, it } from "@effect/vitest"
import { CoreServices } from "@resale/core/CoreServices.ts"
import { OrderService } from "@resale/core/orders/OrderService.ts"
import { Blockchain } from "@resale/core/ports/Blockchain.ts"
import { FragmentSandbox } from "@resale/marketplace"
import { PgConnection } from "@resale/store/PgConnection.ts"
import { PgStore } from "@resale/store/PgStore.ts"
import { SandboxBlockchain } from "@resale/ton"
import { sandboxHotWalletPhrase } from "@resale/ton/TonHotWallet.ts"
import { makeSimulatedGiftSender, SANDBOX_GIFTS } from "@resale/telegram/SimulatedGiftSender.ts"
import { Address } from "@ton/core"
import { Context, Duration, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { paymentSeenOn } from "@resale/ton/SandboxPayments.ts"
import { freshDatabase, fragmentSessions, oneWorker } from "./support/SharedWorld.ts"
import { fundedUser } from "./support/WorkerHarness.ts"

const ORDERS = 100

const run = (workers: number, sessions: number) =>
  Effect.gen(function* () {
    const url = yield* freshDatabase
    const sandbox = yield* SandboxBlockchain
    const fragment = yield* FragmentSandbox
    const gifts = yield* makeSimulatedGiftSender({ accounts: ["user", "girl"] })
    const tag = `w${workers}`

    // The shop: a funded customer and 100 queued orders (40 stars, 20 premium, 40 gifts).
    const shop = CoreServices.pipe(
      Layer.provideMerge(PgStore.layer),
      Layer.provideMerge(PgConnection.layerFromUrl(url, 5))
    )
    const placed = yield* Effect.gen(function* () {
      const orders = yield* OrderService
      const user = yield* fundedUser(200_000_000)
      const made = []
      for (let i = 0; i < ORDERS; i++) {
        const recipient = `${tag}_r${i}`
        made.push(
          yield* i % 5 < 2
            ? orders.create(user.id, { kind: "stars", recipient, stars: 50 + i })
            : i % 5 === 2
              ? orders.create(user.id, { kind: "premium", recipient, months: 3 })
              : orders.create(user.id, {
                  kind: "gift",
                  recipient,
                  gift: { id: SANDBOX_GIFTS[i % 10]!.id, stars: SANDBOX_GIFTS[i % 10]!.stars }
                })
        )
      }
      return { user, made }
    }).pipe(Effect.provide(shop))
    const marketOrders = placed.made.filter((o) => o.item.kind !== "gift")

    const chain = yield* Blockchain
    const hotWalletTxs = Effect.gen(function* () {
      const wallet = yield* chain.resolveWallet(sandboxHotWalletPhrase()).pipe(Effect.option)
      if (wallet._tag === "None") return []
      const txs = yield* Effect.promise(() => sandbox.emulator.getTransactions(Address.parse(wallet.value.address)))
      return txs.filter((tx) => tx.inMessage?.info.type === "external-in")
    })
    const txsBefore = (yield* hotWalletTxs).length

    // The workers, each its own stack, running until every order has settled.
    const sql = Context.get(yield* Layer.build(Layer.fresh(PgConnection.layerFromUrl(url, 2))), SqlClient)
    // every worker is configured with the same sessions: the simulator's main one and `sessions - 1` more
    const world = {
      sandbox,
      fragment,
      fragmentSessions: fragmentSessions(fragment, sessions - 1),
      gifts: gifts.service
    }
    const settings = { concurrency: 2, pollInterval: Duration.millis(30), orderLease: Duration.seconds(20) }
    const started = Date.now()
    yield* Effect.scoped(
      Effect.gen(function* () {
        for (let i = 0; i < workers; i++) yield* Layer.build(oneWorker(url, world, settings))
        while (true) {
          const [open] = yield* sql<{
            n: bigint
          }>`SELECT count(*) AS n FROM orders WHERE status IN ('queued', 'processing')`
          if (Number(open?.n ?? 1) === 0) return
          if (Date.now() - started > 300_000) return yield* Effect.die(new Error("orders did not settle in time"))
          yield* Effect.sleep("200 millis")
        }
      })
    )
    console.log(
      `${workers} workers, ${sessions} Fragment session(s): ${ORDERS} orders settled in ${Date.now() - started} ms`
    )

    // Every order completed, with one charge and no refund.
    const rows = yield* sql<{
      id: bigint
      status: string
      tx_id: string | null
      fragment_ref: string | null
      recipient: string
    }>`
      SELECT id, status, tx_id, fragment_ref, recipient FROM orders ORDER BY id`
    assert.strictEqual(rows.length, ORDERS)
    assert.deepStrictEqual([...new Set(rows.map((r) => r.status))], ["completed"])
    const entries = yield* sql<{
      cause: string
      cause_id: string
    }>`SELECT cause, cause_id FROM ledger_entries WHERE cause IN ('order', 'refund')`
    assert.strictEqual(entries.filter((e) => e.cause === "refund").length, 0)
    assert.deepStrictEqual(entries.map((e) => e.cause_id).sort(), rows.map((r) => String(r.id)).sort())
    const [money] = yield* sql<{ balance: bigint; total: string }>`
      SELECT a.balance_uzs AS balance, (SELECT sum(amount_uzs) FROM ledger_entries e WHERE e.user_id = a.user_id) AS total
      FROM accounts a WHERE a.user_id = ${placed.user.id}`
    assert.strictEqual(Number(money?.balance), Number(money?.total))

    // Stars and premium: one wallet payment record each, paid, and exactly one payment per order on chain
    // (batches carry several: each order's Ref# left the wallet once).
    const records = yield* sql<{
      key: string
      state: string
      tx_hash: string | null
    }>`SELECT key, state, tx_hash FROM wallet_payments`
    assert.strictEqual(records.length, marketOrders.length)
    assert.deepStrictEqual([...new Set(records.map((r) => r.state))], ["paid"])
    const txs = (yield* hotWalletTxs).slice(0, (yield* hotWalletTxs).length - txsBefore)
    assert.isAtMost(txs.length, marketOrders.length)
    const refsPaid = txs.flatMap((tx) =>
      tx.outMessages.values().map((m) => /Ref#(\w+)/.exec(m.body.beginParse().skip(32).loadStringTail())?.[1] ?? "")
    )
    const onChain = new Set(txs.map((tx) => tx.hash().toString("hex")))
    const marketRows = rows.filter((r) => marketOrders.some((o) => o.id === Number(r.id)))
    assert.deepStrictEqual(
      refsPaid.toSorted(),
      marketRows.map((r) => r.fragment_ref ?? "").toSorted(),
      "each order's Ref# paid once"
    )
    for (const row of marketRows) {
      assert.isTrue(onChain.has(row.tx_id ?? ""), `order ${row.id} tx on chain`)
      const invoice = fragment.control.invoiceByRef(row.fragment_ref ?? "")
      assert.strictEqual(invoice?.username, row.recipient)
    }
    // Each order's invoice kept, every other let go (cancelled), except where the answer that opened
    // or linked it never reached the worker (a timeout on a loaded machine): the worker cannot cancel
    // what it never learned of, so it stays open, unpaid, until Fragment drops it.
    const ours = fragment.control.invoices().filter((i) => i.username.startsWith(`${tag}_`))
    const orderRefs = new Set(marketRows.map((r) => r.fragment_ref ?? ""))
    const kept = ours.filter((i) => orderRefs.has(i.ref))
    assert.strictEqual(kept.length, marketOrders.length, "one invoice per order")
    assert.isTrue(
      kept.every((i) => i.status !== "cancelled"),
      "no order's invoice cancelled"
    )
    const leftOpen = ours.filter((i) => !orderRefs.has(i.ref) && i.status !== "cancelled")
    assert.isTrue(
      leftOpen.every((i) => !refsPaid.includes(i.ref)),
      "no other invoice paid"
    )
    if (leftOpen.length > 0) console.log(`${leftOpen.length} invoice(s) left open after an answer was lost, none paid`)

    // Gifts: exactly one sent per gift order.
    const sent = gifts.control.sent().map((g) => g.recipient)
    const giftRecipients = placed.made.filter((o) => o.item.kind === "gift").map((o) => o.recipient)
    assert.deepStrictEqual(sent.toSorted(), giftRecipients.toSorted())
  })

const World = Layer.unwrap(
  Effect.gen(function* () {
    const { emulator } = yield* SandboxBlockchain
    return FragmentSandbox.layerSimulator({ paymentSeen: paymentSeenOn(emulator) })
  })
).pipe(Layer.provideMerge(SandboxBlockchain.layerWith({ expiryMarginSeconds: 5 })))

// Both runs side by side: each has its own database, chain, simulator and gift log, and much of
// each run is waiting on chain blocks, leases and the one Fragment session of the first.
describe.concurrent("several workers on one database", () => {
  it.live(
    "two workers over 100 orders: each executed exactly once",
    () => run(2, 1).pipe(Effect.provide(World)),
    360_000
  )
  it.live(
    "four workers over 100 orders: each executed exactly once",
    () => run(4, 4).pipe(Effect.provide(World)),
    360_000
  )
})
