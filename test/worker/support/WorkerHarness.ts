/**
 * The worker's services on real parts: the store on a fresh PostgreSQL database, the TON VM of
 * @ton/sandbox, the Fragment simulator (a loopback server in Fragment's wire format) with the real
 * adapter, and the simulated gift sender. Tests drive `Fulfilment.runOnce` themselves or run the jobs.
 */
import { Accounts } from "@resale/core/accounts/Accounts.ts"
import type { User } from "@resale/core/accounts/User.ts"
import { Balances } from "@resale/core/ledger/Balances.ts"
import { Ledger } from "@resale/core/ports/Ledger.ts"
import { GiftSender } from "@resale/core/ports/GiftSender.ts"
import { Notifier, NotifierError } from "@resale/core/ports/Notifier.ts"
import { FragmentSandbox } from "@resale/marketplace"
import { IsolatedPostgres } from "@resale/store/testing/IsolatedPostgres.ts"
import { SandboxBlockchain } from "@resale/ton"
import { SandboxFaucet } from "@resale/ton/SandboxFaucet.ts"
import { type GiftSimulatorControl, makeSimulatedGiftSender } from "@resale/telegram/SimulatedGiftSender.ts"
import { WorkerConfig, type WorkerSettings } from "@resale/worker/WorkerConfig.ts"
import { WorkerServices } from "@resale/worker/WorkerLive.ts"
import { paymentSeenOn } from "@resale/ton/SandboxPayments.ts"
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

/** The simulated gift sender's switches and log. */
export class GiftControl extends Context.Service<GiftControl, GiftSimulatorControl>()("test/worker/GiftControl") {}

export const GiftSimulatorLayer = (accounts: ReadonlyArray<string> = ["user", "girl"]) =>
  Layer.effectContext(
    Effect.gen(function* () {
      const sim = yield* makeSimulatedGiftSender({ accounts })
      return Context.make(GiftSender, sim.service).pipe(Context.add(GiftControl, sim.control))
    })
  )

/** A notifier with no channel configured: notifications are skipped, as in a bare sandbox. */
export const SilentNotifier = Layer.succeed(Notifier)(
  Notifier.of({
    push: () => Effect.fail(new NotifierError({ channel: "push", reason: "NotConfigured", message: "test" })),
    botMessage: () => Effect.fail(new NotifierError({ channel: "bot", reason: "NotConfigured", message: "test" }))
  })
)

/** Chain and marketplace of sandbox mode: the TON VM and the Fragment simulator with the real adapter. */
export const SandboxWorld = Layer.unwrap(
  Effect.gen(function* () {
    const { emulator } = yield* SandboxBlockchain
    return FragmentSandbox.layer({ paymentSeen: paymentSeenOn(emulator) }, { timeout: "3 seconds" })
  })
).pipe(Layer.provideMerge(SandboxBlockchain.layerWith({ expiryMarginSeconds: 5 })))

/** Worker services over explicit storage, chain and marketplace. */
export const workerOver = <E, R>(world: Layer.Layer<R, E>, settings: Partial<WorkerSettings> = {}) =>
  WorkerServices.pipe(
    Layer.provideMerge(Layer.mergeAll(GiftSimulatorLayer(), SilentNotifier, WorkerConfig.layerTest(settings))),
    // The hot wallet is funded from the emulator's faucet, as in sandbox mode.
    Layer.provideMerge(SandboxFaucet.layerLocal),
    Layer.provideMerge(world)
  )

/** Everything on one fresh database (one per test file when used with `layer(...)`). */
export const WorkerTestLayer = (settings: Partial<WorkerSettings> = {}) =>
  workerOver(Layer.mergeAll(SandboxWorld, IsolatedPostgres.layerStore), settings)

let telegramIds = 7_000_000 + Math.floor(Math.random() * 1_000_000)

/** A signed-up user holding `amount` so'm. */
export const fundedUser = (amount: number) =>
  Effect.gen(function* () {
    const accounts = yield* Accounts
    const balances = yield* Balances
    const telegramId = ++telegramIds
    const user: User = yield* accounts.signIn({
      telegramId,
      username: `buyer${telegramId}`,
      firstName: "Test",
      photoUrl: null
    })
    yield* balances
      .adjust({ userId: user.id, amount, reason: "test funding", key: `fund-${telegramId}` })
      .pipe(Effect.orDie)
    return user
  })

/** Balance of the account row and the sum of its ledger entries, read straight from the database. */
export const balanceAndEntries = (userId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const [row] = yield* sql<{ balance: bigint; total: string | null }>`
      SELECT a.balance_uzs AS balance, (SELECT sum(amount_uzs) FROM ledger_entries e WHERE e.user_id = a.user_id) AS total
      FROM accounts a WHERE a.user_id = ${userId}`
    const ledger = yield* Ledger
    return {
      balance: Number(row?.balance ?? -1n),
      entries: Number(row?.total ?? 0),
      port: yield* ledger.balance(userId as never)
    }
  }).pipe(Effect.orDie)

/** Ledger entries of an order's charges and refunds. */
export const orderEntries = (orderId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    return yield* sql<{ cause: string; cause_id: string; amount_uzs: bigint }>`
      SELECT cause, cause_id, amount_uzs FROM ledger_entries
      WHERE (cause = 'order' AND (cause_id = ${String(orderId)} OR cause_id LIKE ${`${orderId}:%`}))
         OR (cause = 'refund' AND (cause_id = ${String(orderId)} OR cause_id LIKE ${`${orderId}:%`}))
      ORDER BY id`
  }).pipe(Effect.orDie)
