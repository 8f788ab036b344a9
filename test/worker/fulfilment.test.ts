/**
 * Orders of each kind through the worker on the sandbox chain (the real TON VM) and the local
 * Fragment server (its wire format, paid on chain), with the store on real PostgreSQL.
 */
import { assert, layer } from "@effect/vitest"
import { WalletPayments } from "@resale/core/ports/WalletPayments.ts"
import type { OrderId } from "@resale/core/ids.ts"
import type { Order } from "@resale/core/orders/Order.ts"
import { OrderService } from "@resale/core/orders/OrderService.ts"
import { Blockchain } from "@resale/core/ports/Blockchain.ts"
import { FragmentSandbox } from "@resale/marketplace"
import { SandboxBlockchain } from "@resale/ton"
import { Fulfilment } from "@resale/worker/fulfilment/Fulfilment.ts"
import { HotWallet } from "@resale/core/ports/HotWallet.ts"
import { sandboxHotWalletPhrase } from "@resale/ton/TonHotWallet.ts"
import { SANDBOX_GIFTS } from "@resale/telegram/SimulatedGiftSender.ts"
import { Address } from "@ton/core"
import { Duration, Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { IsolatedPostgres } from "@resale/store/testing/IsolatedPostgres.ts"
import { paymentSeenOn } from "@resale/ton/SandboxPayments.ts"
import { SandboxEnv, SendFaults } from "../../packages/ton/test/support/layers.ts"
import {
  balanceAndEntries,
  fundedUser,
  GiftControl,
  orderEntries,
  WorkerTestLayer,
  workerOver
} from "./support/WorkerHarness.ts"

const gift = SANDBOX_GIFTS[0]!

/** Claims and processes due orders until none is left. */
const drain = Effect.gen(function* () {
  const fulfilment = yield* Fulfilment
  let processed = 0
  while (yield* fulfilment.runOnce) processed++
  return processed
})

const reload = (id: OrderId) =>
  Effect.gen(function* () {
    return yield* (yield* OrderService).find({ kind: "operator" }, id)
  }).pipe(Effect.orDie)

/** Outgoing payments of the hot wallet on the sandbox chain (external-in transactions). */
const hotWalletPayments = Effect.gen(function* () {
  const chain = yield* Blockchain
  const { emulator } = yield* SandboxBlockchain
  yield* (yield* HotWallet).ensureFunded
  const wallet = yield* chain.resolveWallet(sandboxHotWalletPhrase()).pipe(Effect.orDie)
  const txs = yield* Effect.promise(() => emulator.getTransactions(Address.parse(wallet.address)))
  return txs.filter((tx) => tx.inMessage?.info.type === "external-in")
})

/**
 * The order's next check falls due now. The layer below checks an unknown outcome again only after
 * minutes, so no check happens by itself while a test looks; a test brings it forward here. A second
 * in the past: the worker asks for orders due by its clock's milliseconds, and PostgreSQL's `now()`
 * has microseconds, so an order made due by it and claimed within the same millisecond was not due
 * yet (a fast machine did that, and the drain found nothing).
 */
const dueNow = (id: OrderId) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    yield* sql`UPDATE orders SET next_attempt_at = now() - interval '1 second' WHERE id = ${id} AND status = 'queued'`
  }).pipe(Effect.orDie)

/**
 * Drains, then checks again (as the product does, brought forward) every one of `ids` left on an
 * unknown outcome: a delivery the marketplace had not confirmed within the delivery wait, which a
 * loaded machine can make longer than this file's short wait. Until none is left (a few rounds at most).
 */
const drainSettled = (ids: ReadonlyArray<OrderId>) =>
  Effect.gen(function* () {
    let processed = yield* drain
    let rechecks = 0
    for (let round = 0; round < 5; round++) {
      const unknown: Array<OrderId> = []
      for (const id of ids) {
        const order = yield* reload(id)
        if (order.status === "queued" && order.unknownAttempts > 0) unknown.push(id)
      }
      if (unknown.length === 0) break
      for (const id of unknown) yield* dueNow(id)
      rechecks += unknown.length
      processed += yield* drain
    }
    return { processed, rechecks }
  })

const txHashes = (txs: ReadonlyArray<{ hash: () => Buffer }>) => txs.map((tx) => tx.hash().toString("hex"))

// An unknown outcome is checked again only when a test says so (`dueNow`): a re-check due within
// milliseconds ran inside the same drain whenever the machine was slow, and counted twice.
const recheckLater = { reconcileDelay: Duration.minutes(10), unknownRetryMax: Duration.minutes(10) }

layer(WorkerTestLayer({ deliveryWait: Duration.seconds(1), ...recheckLater }), {
  timeout: "60 seconds",
  excludeTestServices: true
})("fulfilment on the sandbox chain and the local Fragment server", (it) => {
  it.effect("stars, premium and gift orders go queued -> completed with their tx recorded", () =>
    Effect.gen(function* () {
      const orders = yield* OrderService
      const user = yield* fundedUser(5_000_000)
      const before = (yield* hotWalletPayments).length
      const stars = yield* orders.create(user.id, { kind: "stars", recipient: "star_fan", stars: 50 })
      const premium = yield* orders.create(user.id, { kind: "premium", recipient: "premium_fan", months: 3 })
      const present = yield* orders.create(user.id, {
        kind: "gift",
        recipient: "gift_fan",
        gift: { id: gift.id, stars: gift.stars },
        comment: "happy birthday",
        senderAccount: "girl",
        anonymous: true
      })
      assert.strictEqual(stars.status, "queued")
      // One attempt per order, and one more only per re-check of a delivery not confirmed in time.
      const { processed, rechecks } = yield* drainSettled([stars.id, premium.id, present.id])
      assert.strictEqual(processed, 3 + rechecks)

      const payments = yield* WalletPayments
      const hot = yield* HotWallet
      // The hot wallet is resolved once (its keys derived once) and reused for every purchase.
      assert.strictEqual(yield* hot.wallet.pipe(Effect.orDie), yield* hot.wallet.pipe(Effect.orDie))
      const { control } = yield* FragmentSandbox
      const onChain = txHashes(yield* hotWalletPayments)
      // Paid together or one by one: never more than one message per order.
      assert.isAtLeast(onChain.length - before, 1)
      assert.isAtMost(onChain.length - before, 2)
      for (const placed of [stars, premium]) {
        const done: Order = yield* reload(placed.id)
        assert.strictEqual(done.status, "completed")
        assert.match(done.txId ?? "", /^[0-9a-f]{64}$/)
        assert.include(onChain, done.txId)
        const record = Option.getOrThrow(yield* payments.find(hot.orderKey(done.id, 0)))
        assert.strictEqual(record.walletAddress, (yield* hot.wallet.pipe(Effect.orDie)).address)
        assert.strictEqual(record.state, "paid")
        assert.strictEqual(record.txHash, done.txId)
        assert.strictEqual(done.fragmentRef, record.ref)
        assert.strictEqual(control.invoiceByRef(record.ref ?? "")?.status, "done")
        assert.strictEqual(control.invoiceByRef(record.ref ?? "")?.username, placed.recipient)
      }
      const sentGift = yield* reload(present.id)
      assert.strictEqual(sentGift.status, "completed")
      assert.match(sentGift.txId ?? "", /^gift:girl:sim-gift-\d+$/)
      // The send marker is the gift's own reference; a gift has no Fragment Ref#.
      assert.match(sentGift.giftRef ?? "", /^gift@\d{4}-/)
      assert.isNull(sentGift.fragmentRef)
      const log = (yield* GiftControl).sent().filter((g) => g.recipient === "gift_fan")
      assert.deepStrictEqual(
        log.map((g) => [g.giftId, g.account, g.message, g.anonymous]),
        [[gift.id, "girl", "happy birthday", true]]
      )

      const money = yield* balanceAndEntries(user.id)
      assert.strictEqual(money.balance, 5_000_000 - stars.priceUzs - premium.priceUzs - present.priceUzs)
      assert.strictEqual(money.entries, money.balance)
      for (const placed of [stars, premium, present]) {
        assert.deepStrictEqual(
          (yield* orderEntries(placed.id)).map((e) => e.cause),
          ["order"]
        )
      }
    })
  )

  it.effect("a marketplace rejection fails the order and refunds it exactly once", () =>
    Effect.gen(function* () {
      const orders = yield* OrderService
      const { control } = yield* FragmentSandbox
      control.subscribed("already_premium")
      const user = yield* fundedUser(1_000_000)
      const before = (yield* hotWalletPayments).length
      const order = yield* orders.create(user.id, { kind: "premium", recipient: "already_premium", months: 6 })
      assert.strictEqual((yield* balanceAndEntries(user.id)).balance, 1_000_000 - order.priceUzs)
      assert.strictEqual(yield* drain, 1)

      const failed = yield* reload(order.id)
      assert.strictEqual(failed.status, "failed")
      assert.include(failed.lastError ?? "", "already subscribed")
      assert.deepStrictEqual(
        (yield* orderEntries(order.id)).map((e) => [e.cause, Number(e.amount_uzs)]),
        [
          ["order", -order.priceUzs],
          ["refund", order.priceUzs]
        ]
      )
      // Nothing more happens to it: no claim, no second refund, and nothing left the hot wallet.
      assert.strictEqual(yield* drain, 0)
      const again = yield* orders.fail(order.id, "again").pipe(Effect.flip)
      assert.strictEqual(again._tag, "OrderTransitionInvalid")
      assert.strictEqual((yield* orderEntries(order.id)).length, 2)
      const money = yield* balanceAndEntries(user.id)
      assert.strictEqual(money.balance, 1_000_000)
      assert.strictEqual(money.entries, 1_000_000)
      assert.strictEqual((yield* hotWalletPayments).length, before)
    })
  )

  it.effect("a gift to an unknown user fails and refunds once; a transient gift failure retries with backoff", () =>
    Effect.gen(function* () {
      const orders = yield* OrderService
      const gifts = yield* GiftControl
      gifts.unknownRecipients.add("nobody_here")
      const user = yield* fundedUser(1_000_000)
      const lost = yield* orders.create(user.id, {
        kind: "gift",
        recipient: "nobody_here",
        gift: { id: gift.id, stars: gift.stars }
      })
      gifts.faults.push("FloodWait")
      const later = yield* orders.create(user.id, {
        kind: "gift",
        recipient: "patient_one",
        gift: { id: gift.id, stars: gift.stars }
      })
      yield* drain

      const failed = yield* reload(lost.id)
      assert.strictEqual(failed.status, "failed")
      assert.include(failed.lastError ?? "", "RecipientNotFound")
      assert.deepStrictEqual(
        (yield* orderEntries(lost.id)).map((e) => e.cause),
        ["order", "refund"]
      )

      const deferred = yield* reload(later.id)
      assert.strictEqual(deferred.status, "queued")
      assert.strictEqual(deferred.attempts, 1)
      assert.include(deferred.lastError ?? "", "FloodWait")
      assert.isTrue((deferred.nextAttemptAt?.getTime() ?? 0) > Date.now() + 20_000)
      assert.deepStrictEqual(
        (yield* orderEntries(later.id)).map((e) => e.cause),
        ["order"]
      )
      assert.strictEqual(gifts.sent().filter((g) => g.recipient === "patient_one").length, 0)
    })
  )

  it.effect("a delivery timeout after payment does not refund; reconciliation completes the order", () =>
    Effect.gen(function* () {
      const orders = yield* OrderService
      const { control } = yield* FragmentSandbox
      const user = yield* fundedUser(1_000_000)
      const before = (yield* hotWalletPayments).length
      control.set({ neverFinish: true })
      const order = yield* orders.create(user.id, { kind: "stars", recipient: "slow_delivery", stars: 75 })
      // Orders of earlier tests may fall due meanwhile (a deferred gift): what counts is this order's checks.
      yield* drain

      const open = yield* reload(order.id)
      assert.strictEqual(open.status, "queued")
      assert.strictEqual(open.attempts, 0)
      assert.strictEqual(open.unknownAttempts, 1)
      assert.isTrue((open.nextAttemptAt?.getTime() ?? 0) > Date.now() + 60_000)
      assert.include(open.lastError ?? "", "MarketplaceTimeout")
      assert.isNotNull(open.fragmentRef)
      assert.deepStrictEqual(
        (yield* orderEntries(order.id)).map((e) => e.cause),
        ["order"]
      )
      assert.strictEqual((yield* hotWalletPayments).length - before, 1)

      // Fragment delivers; the next attempt reconciles the same payment instead of paying again.
      control.set({ neverFinish: false })
      yield* dueNow(order.id)
      yield* drain
      const done = yield* reload(order.id)
      assert.strictEqual(done.status, "completed")
      assert.strictEqual(done.unknownAttempts, 1)
      assert.strictEqual(done.fragmentRef, open.fragmentRef)
      assert.include(txHashes(yield* hotWalletPayments), done.txId)
      assert.strictEqual((yield* hotWalletPayments).length - before, 1)
      assert.deepStrictEqual(
        (yield* orderEntries(order.id)).map((e) => e.cause),
        ["order"]
      )
      const money = yield* balanceAndEntries(user.id)
      assert.strictEqual(money.balance, 1_000_000 - order.priceUzs)
      assert.strictEqual(money.entries, money.balance)
    })
  )
})

const LossyChain = Layer.unwrap(
  Effect.gen(function* () {
    const { emulator } = yield* SandboxBlockchain
    return FragmentSandbox.layer({ paymentSeen: paymentSeenOn(emulator) }, { timeout: "3 seconds" })
  })
).pipe(Layer.provideMerge(SandboxEnv))

layer(workerOver(Layer.mergeAll(LossyChain, IsolatedPostgres.layerStore), { deliveryWait: Duration.seconds(2) }), {
  timeout: "60 seconds",
  excludeTestServices: true
})("fulfilment when the chain's answer is lost", (it) => {
  it.effect("the answer to the payment is lost after or before the node took it: paid once, completed, no refund", () =>
    Effect.gen(function* () {
      const orders = yield* OrderService
      const faults = yield* SendFaults
      const user = yield* fundedUser(1_000_000)
      const before = (yield* hotWalletPayments).length
      faults.push("lostAfterApply")
      const first = yield* orders.create(user.id, { kind: "stars", recipient: "lost_answer", stars: 60 })
      assert.strictEqual(yield* drain, 1)
      faults.push("lostBeforeApply")
      const second = yield* orders.create(user.id, { kind: "premium", recipient: "lost_message", months: 12 })
      assert.strictEqual(yield* drain, 1)
      assert.deepStrictEqual(faults, [])

      const payments = txHashes(yield* hotWalletPayments)
      assert.strictEqual(payments.length - before, 2)
      for (const placed of [first, second]) {
        const done = yield* reload(placed.id)
        assert.strictEqual(done.status, "completed")
        assert.include(payments, done.txId)
        assert.deepStrictEqual(
          (yield* orderEntries(placed.id)).map((e) => e.cause),
          ["order"]
        )
      }
    })
  )
})
