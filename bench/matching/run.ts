/**
 * Incoming-payment match latency with 1,000 and with 1,000,000 pending top-ups, in one run:
 * `node bench/matching/run.ts`. Prints figures (target: the 1,000,000 case within 2x of the 1,000
 * case); never fails on time.
 *
 * Each sample is the core's `Payments.incoming` over PgStore (BEGIN, record the payment, find the
 * live pending top-ups of its amount, confirm + credit + notify, COMMIT): half are payments that
 * match a pending top-up, half match none; the count is the number pending when the samples start. Settings: BENCH_SAMPLES (default 400),
 * BENCH_PENDING (default 1000000), TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432).
 */
import { NodeRuntime } from "@effect/platform-node"
import { CoreServices } from "@resale/core/CoreServices.ts"
import { Payments } from "@resale/core/payments/Payments.ts"
import { Users } from "@resale/core/ports/Users.ts"
import { Migrations } from "@resale/store/Migrations.ts"
import { PgConnection } from "@resale/store/PgConnection.ts"
import { PgStore } from "@resale/store/PgStore.ts"
import { createDatabase, databaseUrl, dropDatabase, uniqueName } from "@resale/store/testing/TestDatabase.ts"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql/SqlClient"

const samples = Number(process.env["BENCH_SAMPLES"] ?? 400)
const largest = Number(process.env["BENCH_PENDING"] ?? 1_000_000)
const TARGET = 2

interface Figures {
  readonly pending: number
  readonly matched: Stats
  readonly unmatched: Stats
}

interface Stats {
  readonly p50: number
  readonly p95: number
  readonly mean: number
}

const stats = (ms: ReadonlyArray<number>): Stats => {
  const sorted = ms.toSorted((a, b) => a - b)
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN
  return { p50: at(0.5), p95: at(0.95), mean: sorted.reduce((s, x) => s + x, 0) / sorted.length }
}

/** Pending card top-ups with payable amounts base+1 .. base+count (unique among pending, as the schema demands). */
const addPending = (userId: number, base: number, count: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const chunk = 200_000
    for (let from = 1; from <= count; from += chunk) {
      const to = Math.min(count, from + chunk - 1)
      yield* sql`
        INSERT INTO topups (user_id, method, requested_uzs, payable_uzs, status, expires_at, created_at, updated_at)
        SELECT ${userId}, 'card', ${base} + g, ${base} + g, 'pending', now() + interval '1 day', now(), now()
        FROM generate_series(${from}::bigint, ${to}::bigint) AS g`
    }
    yield* sql`ANALYZE topups`
  })

/** `samples` payments: even ones pay a pending top-up of the range, odd ones an amount nobody owes. */
const measure = (base: number, count: number, round: number) =>
  Effect.gen(function* () {
    const payments = yield* Payments
    const matched: Array<number> = []
    const unmatched: Array<number> = []
    for (let i = 0; i < samples; i++) {
      const hit = i % 2 === 0
      // Spread over the whole range so the index is walked everywhere, not one hot page.
      const amount = hit ? base + 1 + Math.floor(((i / 2) * 7919) % count) : 5_000_000_000 + round * 1_000_000 + i
      const started = performance.now()
      const result = yield* payments.incoming({ amountUzs: amount, externalId: `bench-${round}-${i}` })
      const took = performance.now() - started
      if (hit && result.outcome !== "matched")
        yield* Effect.die(new Error(`payment ${amount} did not match: ${result.outcome}`))
      ;(hit ? matched : unmatched).push(took)
    }
    return { matched: stats(matched), unmatched: stats(unmatched) }
  })

const line = (f: Figures) =>
  `${f.pending.toLocaleString("en").padStart(10)} pending | matched p50 ${f.matched.p50.toFixed(2)} ms p95 ${f.matched.p95.toFixed(2)} ms ` +
  `mean ${f.matched.mean.toFixed(2)} ms | unmatched p50 ${f.unmatched.p50.toFixed(2)} ms p95 ${f.unmatched.p95.toFixed(2)} ms`

const program = Effect.gen(function* () {
  const name = uniqueName("resale_bench")
  yield* createDatabase(name)
  yield* Effect.addFinalizer(() => dropDatabase(name).pipe(Effect.orDie))
  const url = databaseUrl(name)
  yield* Migrations.run.pipe(Effect.provide(Layer.fresh(PgConnection.layerFromUrl(url, 1))))
  const stack = CoreServices.pipe(
    Layer.provideMerge(PgStore.layer),
    Layer.provideMerge(PgConnection.layerFromUrl(url, 4))
  )

  yield* Effect.gen(function* () {
    const user = yield* (yield* Users).upsertTelegram(
      { telegramId: 1, username: "bench", firstName: null, photoUrl: null },
      new Date()
    )
    const base = 1_000_000
    // Warm-up (connections, plans, code paths) on top-ups its matched half uses up entirely.
    yield* addPending(user.id, base, samples / 2)
    yield* measure(base, samples / 2, 0)
    yield* addPending(user.id, base + 10_000, 1_000)
    const small = { pending: 1_000, ...(yield* measure(base + 10_000, 1_000, 1)) }
    console.log(line(small))
    const left = 1_000 - samples / 2
    console.log(`adding ${(largest - left).toLocaleString("en")} pending top-ups...`)
    yield* addPending(user.id, base + 100_000, largest - left)
    const big = { pending: largest, ...(yield* measure(base + 100_000, largest - left, 2)) }
    console.log(line(big))
    const ratio = big.matched.p50 / small.matched.p50
    console.log(
      `matched p50 ratio ${ratio.toFixed(2)}x (target <= ${TARGET}x): ${ratio <= TARGET ? "within target" : "ABOVE TARGET"}; ` +
        `unmatched p50 ratio ${(big.unmatched.p50 / small.unmatched.p50).toFixed(2)}x`
    )
  }).pipe(Effect.provide(stack))
})

program.pipe(Effect.scoped, NodeRuntime.runMain)
