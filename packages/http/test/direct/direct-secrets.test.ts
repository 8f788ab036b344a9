/**
 * The mnemonic never leaves request memory. Purchases, transfers and every kind of failure are run with
 * known test phrases (generated for this run); then everything the service wrote is scanned for them:
 * every log line (all levels, with annotations and causes), every span, the console, every answer, a
 * pg_dump and a SELECT of every table of the database, and every file of the data directory.
 */
import { assert, layer } from "@effect/vitest"
import { databaseUrl } from "@resale/store/testing/index.ts"
import { deriveKeys } from "@resale/ton/Mnemonic.ts"
import { Effect, Redacted } from "effect"
import { execFile } from "node:child_process"
import { readdir, readFile } from "node:fs/promises"
import { join } from "node:path"
import { promisify } from "node:util"
import { type Answer, call, post } from "./support/client.ts"
import { DirectTestEnv, makeDirectTestEnv } from "./support/DirectTestServer.ts"
import { fundedWallet, orderId, ton } from "./support/wallets.ts"

/** Does `text` hold the phrase, or any six of its words in a row (whatever separates them)? */
const leaks = (text: string, phrase: string): boolean => {
  const words = phrase.split(" ")
  const tokens = text
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((w) => w.length > 0)
  for (let start = 0; start + 6 <= words.length; start++) {
    const gram = words.slice(start, start + 6)
    for (let i = 0; i + 6 <= tokens.length; i++) {
      if (gram.every((w, j) => tokens[i + j] === w)) return true
    }
  }
  return text.includes(phrase)
}

const filesUnder = (dir: string): Promise<Array<string>> =>
  readdir(dir, { withFileTypes: true }).then((entries) =>
    Promise.all(
      entries.map((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : Promise.resolve([join(dir, e.name)])))
    ).then((nested) => nested.flat())
  )

/** Everything written to stdout and stderr while `effect` runs. */
const capturingConsole = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const written: Array<string> = []
    const out = process.stdout.write.bind(process.stdout)
    const err = process.stderr.write.bind(process.stderr)
    const tap = (original: typeof out) =>
      ((chunk: unknown, ...rest: Array<unknown>) => {
        written.push(String(chunk))
        return (original as (...a: Array<unknown>) => boolean)(chunk, ...rest)
      }) as typeof out
    process.stdout.write = tap(out)
    process.stderr.write = tap(err)
    const result = yield* effect.pipe(
      Effect.ensuring(
        Effect.sync(() => {
          process.stdout.write = out
          process.stderr.write = err
        })
      )
    )
    return { result, console: written.join("") }
  })

layer(makeDirectTestEnv(), { timeout: "120 seconds", excludeTestServices: true })(
  "the mnemonic is never written anywhere",
  (it) => {
    it.effect("the scanner itself finds a phrase and six of its words", () =>
      Effect.sync(() => {
        const phrase = "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima"
        assert.isTrue(leaks(`x ${phrase} y`, phrase))
        assert.isTrue(leaks(`"charlie","delta","echo","foxtrot","golf","hotel"`, phrase))
        assert.isFalse(leaks("alpha bravo charlie delta echo", phrase))
      })
    )

    it.effect(
      "purchases, transfers and failures with known phrases: nothing in logs, spans, console, answers, database or files",
      () =>
        Effect.gen(function* () {
          const env = yield* DirectTestEnv
          const a = yield* fundedWallet(env, "ton24", "v4r2", ton(40))
          const b = yield* fundedWallet(env, "bip12", "v5r1", ton(10))
          const phrases = [a.phrase, b.phrase]
          const keys = (yield* Effect.orDie(deriveKeys(Redacted.make(a.phrase)))).map((k) =>
            Buffer.from(k.key.secretKey)
          )
          const logsBefore = env.logs.length

          const { console, result: answers } = yield* capturingConsole(
            Effect.gen(function* () {
              const out: Array<Answer> = []
              const run = (res: Answer) => Effect.sync(() => out.push(res))
              yield* run(
                yield* post(env, "/stars/buy", {
                  username: "scanbuyer",
                  amount: 50,
                  seed: a.phrase,
                  order_id: orderId("scan")
                })
              )
              yield* run(yield* post(env, "/premium/buy", { username: "scanbuyer", duration: 12, seed: a.phrase }))
              yield* run(yield* post(env, "/coin/buy", { username: "scanbuyer", amount: 1, seed: b.phrase }))
              yield* run(
                yield* post(env, "/coin/transfer", {
                  to: env.fragment.walletAddress,
                  amount: 0.1,
                  seed: b.phrase,
                  comment: "scan"
                })
              )
              yield* run(yield* post(env, "/balance", { seed: a.phrase }))
              // failures, each with the phrase in the request
              yield* run(
                yield* post(env, "/stars/buy", {
                  username: "scanbuyer",
                  amount: 50,
                  seed: b.phrase,
                  wallet_version: "v4r2"
                })
              )
              yield* run(yield* post(env, "/stars/buy", `{"username":"scanbuyer","amount":50,"seed":"${a.phrase}"`))
              yield* run(yield* post(env, "/stars/buy", { username: a.phrase, amount: 50, seed: a.phrase }))
              yield* run(
                yield* post(env, "/coin/transfer", { to: a.phrase, amount: 1, seed: a.phrase, comment: a.phrase })
              )
              yield* run(
                yield* post(env, "/coin/transfer", {
                  to: env.fragment.walletAddress,
                  amount: 1,
                  seed: a.phrase,
                  order_id: a.phrase
                })
              )
              yield* run(yield* call(env, "GET", `/balance?seed=${encodeURIComponent(a.phrase)}`))
              yield* run(yield* post(env, "/premium/buy", { username: "scanbuyer", duration: 3, seed: b.phrase }))
              yield* run(
                yield* post(env, "/coin/transfer", { to: env.fragment.walletAddress, amount: 1000, seed: a.phrase })
              )
              env.fragment.control.subscribed("scansubscribed")
              yield* run(yield* post(env, "/premium/buy", { username: "scansubscribed", duration: 3, seed: a.phrase }))
              env.faults.sends.push("lostAfterApplyThenDown")
              yield* run(
                yield* post(env, "/coin/transfer", { to: env.fragment.walletAddress, amount: 0.2, seed: b.phrase })
              )
              env.faults.down = false
              yield* env.sql`ALTER TABLE direct_purchases RENAME TO direct_purchases_away`
              yield* run(
                yield* post(env, "/coin/transfer", {
                  to: env.fragment.walletAddress,
                  amount: 0.3,
                  seed: a.phrase
                }).pipe(
                  Effect.ensuring(Effect.orDie(env.sql`ALTER TABLE direct_purchases_away RENAME TO direct_purchases`))
                )
              )
              return out
            })
          )

          const statuses = answers.map((r) => r.status)
          assert.deepStrictEqual(statuses.slice(0, 5), [200, 200, 200, 200, 200], answers.map((r) => r.text).join("\n"))
          assert.includeMembers(statuses, [400, 500])

          // The database: a dump and every row of every table.
          const [{ db }] = (yield* env.sql<{ db: string }>`SELECT current_database() AS db`) as unknown as [
            { db: string }
          ]
          const dump = yield* Effect.promise(() =>
            promisify(execFile)("pg_dump", ["--data-only", databaseUrl(db)], { maxBuffer: 64 << 20 })
          )
          const tables = yield* env.sql<{
            name: string
          }>`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'`
          const rows: Array<string> = []
          for (const { name } of tables) {
            const all = yield* env.sql.unsafe<{ row: unknown }>(`SELECT row_to_json(t) AS row FROM "${name}" t`)
            rows.push(...all.map((r) => JSON.stringify(r.row)))
          }
          assert.isTrue(
            rows.some((r) => r.includes("scanbuyer")),
            "the purchases are recorded"
          )
          // The data directory (the sandbox chain's state file).
          const files = yield* Effect.promise(() => filesUnder(env.dataDir))
          const contents = yield* Effect.promise(() => Promise.all(files.map((f) => readFile(f))))
          assert.isNotEmpty(files)

          const logs = env.logs.slice(logsBefore)
          assert.isTrue(
            logs.some((l) => l.includes("<MNEMONIC_PHRASE>")),
            "requests are logged, redacted"
          )
          assert.isTrue(
            logs.some((l) => l.includes("defect")),
            "the defect is logged"
          )
          assert.isTrue(
            env.spans.some((l) => l.includes("seed=REDACTED")),
            "the request spans are captured, the URL's query redacted"
          )
          const sources: ReadonlyArray<readonly [string, string]> = [
            ["logs", logs.join("\n")],
            ["spans", env.spans.join("\n")],
            ["console", console],
            ["answers", answers.map((r) => r.text).join("\n")],
            ["pg_dump", dump.stdout],
            ["tables", rows.join("\n")],
            ...files.map((f, i) => [`file ${f}`, contents[i]!.toString("latin1")] as const)
          ]
          for (const [where, text] of sources) {
            for (const phrase of phrases) assert.isFalse(leaks(text, phrase), `the phrase appears in ${where}`)
            for (const key of keys) {
              assert.isFalse(
                text.includes(key.toString("hex")) || text.includes(key.toString("base64")),
                `a secret key appears in ${where}`
              )
            }
          }
          for (const [f, content] of files.map((f, i) => [f, contents[i]!] as const)) {
            for (const key of keys) assert.strictEqual(content.indexOf(key), -1, `a raw secret key appears in ${f}`)
          }
        }),
      60_000
    )
  }
)
