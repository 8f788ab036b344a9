/**
 * A rush of account orders through the worker on a chain that runs in blocks (300 ms): the invoices
 * that become ready while one message of the hot wallet waits for its block go out together in the
 * next one, so 30 orders need far fewer messages than orders; each is completed and paid exactly once.
 */
import { assert, layer } from "@effect/vitest"
import { OrderService } from "@resale/core/orders/OrderService.ts"
import { Blockchain } from "@resale/core/ports/Blockchain.ts"
import { FragmentSandbox } from "@resale/marketplace"
import { IsolatedPostgres } from "@resale/store/testing/IsolatedPostgres.ts"
import { SandboxBlockchain } from "@resale/ton"
import { paymentSeenOn } from "@resale/ton/SandboxPayments.ts"
import { Fulfilment } from "@resale/worker/fulfilment/Fulfilment.ts"
import { HotWallet } from "@resale/core/ports/HotWallet.ts"
import { Address } from "@ton/core"
import { Duration, Effect, Layer } from "effect"
import { fundedUser, orderEntries, workerOver } from "./support/WorkerHarness.ts"

const ORDERS = 30

const BlockWorld = Layer.unwrap(Effect.gen(function*() {
  const { emulator } = yield* SandboxBlockchain
  return FragmentSandbox.layer({ paymentSeen: paymentSeenOn(emulator) }, { timeout: "3 seconds" })
})).pipe(Layer.provideMerge(SandboxBlockchain.layerWith({ expiryMarginSeconds: 5, blockInterval: "300 millis" })))

const Stack = workerOver(Layer.mergeAll(BlockWorld, IsolatedPostgres.layerStore), {
  concurrency: ORDERS,
  deliveryWait: Duration.seconds(2),
  chainPollEvery: Duration.millis(100)
})

layer(Stack, { timeout: "120 seconds", excludeTestServices: true })("batched payments in the worker (blocks every 300 ms)", (it) => {
  it.effect("30 stars orders at once: paid by far fewer messages than orders, each order completed and its Ref# paid once", () =>
    Effect.gen(function*() {
      const orders = yield* OrderService
      const fulfilment = yield* Fulfilment
      const hot = yield* HotWallet
      const user = yield* fundedUser(50_000_000)
      yield* hot.ensureFunded
      const wallet = yield* hot.wallet.pipe(Effect.orDie)
      const placed = yield* Effect.forEach(Array.from({ length: ORDERS }, (_, i) => i), (i) =>
        orders.create(user.id, { kind: "stars", recipient: `rush_${i}`, stars: 50 + i }))

      // As the worker's loops do: every loop claims an order and carries it, all at once.
      yield* Effect.forEach(placed, () => Effect.repeat(fulfilment.runOnce, { while: (busy) => busy }), { concurrency: "unbounded" })

      const settled = yield* Effect.forEach(placed, (o) => orders.find({ kind: "operator" }, o.id).pipe(Effect.orDie))
      assert.deepStrictEqual([...new Set(settled.map((o) => o.status))], ["completed"])
      for (const order of settled) assert.deepStrictEqual((yield* orderEntries(order.id)).map((e) => e.cause), ["order"])

      const { emulator } = yield* SandboxBlockchain
      const txs = (yield* Effect.promise(() => emulator.getTransactions(Address.parse(wallet.address))))
        .filter((tx) => tx.inMessage?.info.type === "external-in")
      const refs = txs.flatMap((tx) => tx.outMessages.values().map((m) => /Ref#(\w+)/.exec(m.body.beginParse().skip(32).loadStringTail())?.[1] ?? ""))
      assert.deepStrictEqual(refs.toSorted(), settled.map((o) => o.fragmentRef ?? "").toSorted(), "each order's Ref# paid once")
      const biggest = Math.max(...txs.map((tx) => tx.outMessages.size))
      console.log(`${ORDERS} orders paid by ${txs.length} messages (largest batch ${biggest})`)
      assert.isBelow(txs.length, ORDERS / 2, "batched: far fewer messages than orders")
      assert.isAbove(biggest, 1)
      assert.isTrue((yield* (yield* Blockchain).balance(wallet.address)) > 0n)
    }))
})
