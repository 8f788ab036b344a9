/**
 * The share of account orders whose delivery Fragment confirmed, when the Fragment sessions are free
 * (as many sessions as orders at once): every one, at 1 and at 5 orders at once. Real parts: the
 * worker's fulfilment, PostgreSQL, the TON VM in blocks, and the Fragment simulator over loopback HTTP
 * (one purchase state per cookie session, as fragment.com). Batched purchases lend their session while
 * their payment waits for its block, so no order's session moves on before its delivery is read.
 * (Under load, more orders than sessions, the share is what `bench/delivery` prints.)
 */
import { assert, layer } from "@effect/vitest"
import type { Order } from "@resale/core/orders/Order.ts"
import { OrderService } from "@resale/core/orders/OrderService.ts"
import { HotWallet } from "@resale/core/ports/HotWallet.ts"
import { FragmentSandbox } from "@resale/marketplace"
import { IsolatedPostgres } from "@resale/store/testing/IsolatedPostgres.ts"
import { SandboxBlockchain } from "@resale/ton"
import { paymentSeenOn } from "@resale/ton/SandboxPayments.ts"
import { Fulfilment } from "@resale/worker/fulfilment/Fulfilment.ts"
import { Duration, Effect, Layer } from "effect"
import { fundedUser, orderEntries, workerOver } from "./support/WorkerHarness.ts"

const SESSIONS = 5

const FreeSessions = Layer.unwrap(
  Effect.gen(function* () {
    const { emulator } = yield* SandboxBlockchain
    return FragmentSandbox.layer({ paymentSeen: paymentSeenOn(emulator), sessions: SESSIONS }, { timeout: "3 seconds" })
  })
).pipe(Layer.provideMerge(SandboxBlockchain.layerWith({ expiryMarginSeconds: 5, blockInterval: "1 second" })))

const Stack = workerOver(Layer.mergeAll(FreeSessions, IsolatedPostgres.layerStore), {
  concurrency: SESSIONS,
  deliveryWait: Duration.seconds(20),
  chainPollEvery: Duration.millis(100)
})

/** `count` stars orders placed together and carried at once, as the worker's loops do; settled as stored. */
const burst = (count: number, tag: string) =>
  Effect.gen(function* () {
    const orders = yield* OrderService
    const fulfilment = yield* Fulfilment
    const user = yield* fundedUser(50_000_000)
    const placed = yield* Effect.forEach(
      Array.from({ length: count }, (_, i) => i),
      (i) => orders.create(user.id, { kind: "stars", recipient: `${tag}_${i}`, stars: 50 + i })
    )
    yield* Effect.forEach(placed, () => Effect.repeat(fulfilment.runOnce, { while: (busy) => busy }), {
      concurrency: "unbounded"
    })
    return yield* Effect.forEach(placed, (o) => orders.find({ kind: "operator" }, o.id).pipe(Effect.orDie))
  })

const confirmedShare = (settled: ReadonlyArray<Order>) =>
  settled.filter((o) => o.status === "completed" && o.delivery === "confirmed").length / settled.length

layer(Stack, { timeout: "180 seconds", excludeTestServices: true })(
  `confirmed deliveries with ${SESSIONS} free Fragment sessions`,
  (it) => {
    it.effect("1 order, then 5 orders at once: every delivery confirmed by Fragment, each paid and charged once", () =>
      Effect.gen(function* () {
        yield* (yield* HotWallet).ensureFunded
        for (const [count, tag] of [
          [1, "alone"],
          [5, "five"]
        ] as const) {
          const settled = yield* burst(count, tag)
          const seen = settled.map((o) => `#${o.id} ${o.status}/${o.delivery}: ${o.lastError ?? ""}`).join("; ")
          assert.strictEqual(confirmedShare(settled), 1, `${count} at once: ${seen}`)
          for (const order of settled) {
            assert.deepStrictEqual(
              (yield* orderEntries(order.id)).map((e) => e.cause),
              ["order"]
            )
            assert.isNotNull(order.fragmentRef)
          }
          const { control } = yield* FragmentSandbox
          assert.strictEqual(control.invoices().filter((i) => i.username.startsWith(`${tag}_`)).length, count)
        }
      })
    )

    it.effect("more orders than sessions: each completed, confirmed or on its own evidence, never refunded", () =>
      Effect.gen(function* () {
        const settled = yield* burst(3 * SESSIONS, "rush")
        assert.deepStrictEqual([...new Set(settled.map((o) => o.status))], ["completed"])
        for (const order of settled) {
          if (order.delivery === "confirmed") continue
          assert.strictEqual(order.delivery, "paid_unconfirmed")
          assert.strictEqual(order.evidence?.ref, order.fragmentRef)
          assert.include(order.evidence?.answers.at(-1) ?? "", "accepted the signed message")
        }
        // the share under load is a figure, not a pass mark (bench/delivery prints it)
        yield* Effect.logInfo(
          `${3 * SESSIONS} at once on ${SESSIONS} sessions: ${confirmedShare(settled) * 100}% confirmed`
        )
      })
    )
  }
)
