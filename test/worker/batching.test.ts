/**
 * A rush of account orders through the worker on a chain that runs in blocks (1.5 s, as long as the
 * quotes of a loaded machine need for several invoices to be ready per block): the invoices
 * that become ready while one message of the hot wallet waits for its block go out together in the
 * next one, so 30 orders need far fewer messages than orders; each is completed and paid exactly once.
 * From a V5R1 hot wallet and from a Highload Wallet V3 (`HOT_WALLET_VERSION=highload-v3`).
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
import { Duration, Effect, Layer, Option } from "effect"
import { fundedUser, orderEntries, workerOver } from "./support/WorkerHarness.ts"

const ORDERS = 30

const BlockWorld = Layer.unwrap(
  Effect.gen(function* () {
    const { emulator } = yield* SandboxBlockchain
    return FragmentSandbox.layer({ paymentSeen: paymentSeenOn(emulator) }, { timeout: "3 seconds" })
  })
).pipe(Layer.provideMerge(SandboxBlockchain.layerWith({ expiryMarginSeconds: 5, blockInterval: "1500 millis" })))

const stack = (version: "v5r1" | "highload-v3") =>
  workerOver(Layer.mergeAll(BlockWorld, IsolatedPostgres.layerStore), {
    concurrency: ORDERS,
    deliveryWait: Duration.seconds(2),
    chainPollEvery: Duration.millis(100),
    hotWalletVersion: Option.some(version)
  })

for (const version of ["v5r1", "highload-v3"] as const) {
  layer(stack(version), { timeout: "120 seconds", excludeTestServices: true })(
    `batched payments in the worker from ${version} (blocks every 1.5 s)`,
    (it) => {
      it.effect(
        "30 stars orders at once: paid by far fewer messages than orders, each order completed and its Ref# paid once",
        () =>
          Effect.gen(function* () {
            const orders = yield* OrderService
            const fulfilment = yield* Fulfilment
            const hot = yield* HotWallet
            const user = yield* fundedUser(50_000_000)
            yield* hot.ensureFunded
            const wallet = yield* hot.wallet.pipe(Effect.orDie)
            const placed = yield* Effect.forEach(
              Array.from({ length: ORDERS }, (_, i) => i),
              (i) => orders.create(user.id, { kind: "stars", recipient: `rush_${i}`, stars: 50 + i })
            )

            // As the worker's loops do: every loop claims an order and carries it, all at once.
            yield* Effect.forEach(placed, () => Effect.repeat(fulfilment.runOnce, { while: (busy) => busy }), {
              concurrency: "unbounded"
            })

            const settled = yield* Effect.forEach(placed, (o) =>
              orders.find({ kind: "operator" }, o.id).pipe(Effect.orDie)
            )
            assert.deepStrictEqual([...new Set(settled.map((o) => o.status))], ["completed"])
            for (const order of settled)
              assert.deepStrictEqual(
                (yield* orderEntries(order.id)).map((e) => e.cause),
                ["order"]
              )

            const { emulator } = yield* SandboxBlockchain
            assert.strictEqual(wallet.version, version)
            const self = Address.parse(wallet.address)
            const all = yield* Effect.promise(() => emulator.getTransactions(self))
            const txs = all.filter((tx) => tx.inMessage?.info.type === "external-in")
            // What left for others: a highload batch's payments leave from the run of its message to itself.
            const payments = all.map((tx) =>
              tx.outMessages.values().filter((m) => m.info.type === "internal" && !m.info.dest.equals(self))
            )
            const refs = payments
              .flat()
              .map((m) => /Ref#(\w+)/.exec(m.body.beginParse().skip(32).loadStringTail())?.[1] ?? "")
            assert.deepStrictEqual(
              refs.toSorted(),
              settled.map((o) => o.fragmentRef ?? "").toSorted(),
              "each order's Ref# paid once"
            )
            const biggest = Math.max(...payments.map((p) => p.length))
            console.log(`${version}: ${ORDERS} orders paid by ${txs.length} messages (largest batch ${biggest})`)
            assert.isBelow(txs.length, ORDERS / 2, "batched: far fewer messages than orders")
            assert.isAbove(biggest, 1)
            assert.isTrue((yield* (yield* Blockchain).balance(wallet.address)) > 0n)
          })
      )
    }
  )
}
