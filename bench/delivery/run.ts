/**
 * Delivery benchmark (prints figures; never pass/fail): the share of account orders whose delivery
 * Fragment confirmed (the rest complete on their own evidence: paid on chain with their Ref#, and
 * Fragment accepted the signed message), at 1, 5 and 50 stars orders placed at once. In process, on
 * real parts: the worker's fulfilment (all orders carried at once, as its loops do), a fresh PostgreSQL
 * database per burst size, the sandbox chain in blocks and the Fragment simulator over loopback HTTP
 * with S cookie sessions (Fragment answers for a session's latest purchase only).
 * Needs PostgreSQL at TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432).
 * Run: node bench/delivery/run.ts [sessions, default 1,5] [bursts, default 1,5,50] [block seconds, default 1]
 */
import { Accounts } from "@resale/core/accounts/Accounts.ts"
import { Balances } from "@resale/core/ledger/Balances.ts"
import type { Order } from "@resale/core/orders/Order.ts"
import { OrderService } from "@resale/core/orders/OrderService.ts"
import { GiftSender } from "@resale/core/ports/GiftSender.ts"
import { HotWallet } from "@resale/core/ports/HotWallet.ts"
import { Notifier, NotifierError } from "@resale/core/ports/Notifier.ts"
import { FragmentSandbox } from "@resale/marketplace"
import { IsolatedPostgres } from "@resale/store/testing/IsolatedPostgres.ts"
import { makeSimulatedGiftSender } from "@resale/telegram/SimulatedGiftSender.ts"
import { SandboxBlockchain } from "@resale/ton"
import { SandboxFaucet } from "@resale/ton/SandboxFaucet.ts"
import { paymentSeenOn } from "@resale/ton/SandboxPayments.ts"
import { Fulfilment } from "@resale/worker/fulfilment/Fulfilment.ts"
import { WorkerConfig } from "@resale/worker/WorkerConfig.ts"
import { WorkerServices } from "@resale/worker/WorkerLive.ts"
import { Duration, Effect, Layer, Logger, References } from "effect"

const list = (arg: string | undefined, fallback: string) => (arg ?? fallback).split(",").map(Number)
const SESSIONS = list(process.argv[2], "1,5")
const BURSTS = list(process.argv[3], "1,5,50")
const BLOCK_SECONDS = Number(process.argv[4] ?? 1)

const Silent = Layer.succeed(Notifier)(
  Notifier.of({
    push: () => Effect.fail(new NotifierError({ channel: "push", reason: "NotConfigured", message: "bench" })),
    botMessage: () => Effect.fail(new NotifierError({ channel: "bot", reason: "NotConfigured", message: "bench" }))
  })
)
const Gifts = Layer.effect(
  GiftSender,
  Effect.map(makeSimulatedGiftSender({ accounts: ["user"] }), (sim) => sim.service)
)

/** One fresh world: database, chain, simulator with `sessions` sessions, the worker's services. */
const world = (sessions: number, orders: number) =>
  WorkerServices.pipe(
    Layer.provideMerge(
      Layer.mergeAll(
        Gifts,
        Silent,
        WorkerConfig.layerTest({
          concurrency: orders,
          deliveryWait: Duration.seconds(30),
          chainPollEvery: Duration.millis(100)
        })
      )
    ),
    Layer.provideMerge(SandboxFaucet.layerLocal),
    Layer.provideMerge(
      Layer.mergeAll(
        Layer.unwrap(
          Effect.gen(function* () {
            const { emulator } = yield* SandboxBlockchain
            return FragmentSandbox.layer({ paymentSeen: paymentSeenOn(emulator), sessions }, { timeout: "5 seconds" })
          })
        ).pipe(
          Layer.provideMerge(
            SandboxBlockchain.layerWith({ expiryMarginSeconds: 5, blockInterval: Duration.seconds(BLOCK_SECONDS) })
          )
        ),
        IsolatedPostgres.layerStore
      )
    )
  )

const burst = (orders: number) =>
  Effect.gen(function* () {
    const service = yield* OrderService
    const fulfilment = yield* Fulfilment
    yield* (yield* HotWallet).ensureFunded
    const user = yield* (yield* Accounts).signIn({
      telegramId: 9_100_000 + orders,
      username: "bench_buyer",
      firstName: "Bench",
      photoUrl: null
    })
    yield* (yield* Balances)
      .adjust({ userId: user.id, amount: 1_000_000_000, reason: "bench funding", key: `bench-${orders}` })
      .pipe(Effect.orDie)
    const placed = yield* Effect.forEach(
      Array.from({ length: orders }, (_, i) => i),
      (i) => service.create(user.id, { kind: "stars", recipient: `burst_${i}`, stars: 50 + i })
    )
    const started = Date.now()
    yield* Effect.forEach(placed, () => Effect.repeat(fulfilment.runOnce, { while: (busy) => busy }), {
      concurrency: "unbounded"
    })
    const seconds = (Date.now() - started) / 1000
    const settled: ReadonlyArray<Order> = yield* Effect.forEach(placed, (o) =>
      service.find({ kind: "operator" }, o.id).pipe(Effect.orDie)
    )
    const count = (f: (o: Order) => boolean) => settled.filter(f).length
    return {
      confirmed: count((o) => o.status === "completed" && o.delivery === "confirmed"),
      onEvidence: count((o) => o.status === "completed" && o.delivery === "paid_unconfirmed"),
      other: count((o) => o.status !== "completed"),
      seconds
    }
  })

const main = Effect.gen(function* () {
  console.log(`block interval ${BLOCK_SECONDS} s; share of orders whose delivery Fragment confirmed`)
  console.log("sessions  at once  confirmed  on own evidence  not completed  seconds")
  for (const sessions of SESSIONS) {
    for (const orders of BURSTS) {
      const r = yield* burst(orders).pipe(Effect.provide(world(sessions, orders)))
      const share = ((100 * r.confirmed) / orders).toFixed(0)
      console.log(
        `${String(sessions).padStart(8)}  ${String(orders).padStart(7)}  ${`${share}%`.padStart(9)}  ` +
          `${String(r.onEvidence).padStart(15)}  ${String(r.other).padStart(13)}  ${r.seconds.toFixed(1).padStart(7)}`
      )
    }
  }
})

Effect.runPromise(
  main.pipe(
    Effect.provideService(References.MinimumLogLevel, "Error"),
    Effect.provide(Logger.layer([Logger.consolePretty()]))
  )
).catch((error) => {
  console.error(error)
  process.exit(1)
})
