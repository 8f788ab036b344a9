import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { resolveVapidKeys } from "../src/VapidKeys.ts"

/** A fresh, empty data directory, removed when the test ends. */
const dataDir = Effect.acquireRelease(
  Effect.promise(() => mkdtemp(join(tmpdir(), "vapid-"))),
  (dir) => Effect.promise(() => rm(dir, { recursive: true, force: true }))
)

const sandboxKeys = (dir: string) =>
  resolveVapidKeys({ configured: Option.none(), sandbox: true, dataDir: dir }).pipe(Effect.map(Option.getOrThrow))

const storedFile = (dir: string) =>
  Effect.promise(
    async () =>
      JSON.parse(await readFile(join(dir, "vapid-keys.json"), "utf8")) as { publicKey: string; privateKey: string }
  )

describe("resolveVapidKeys", () => {
  it.effect("server and worker creating the sandbox pair at once in one process: one pair for all, no temp left", () =>
    Effect.gen(function* () {
      const dir = yield* dataDir
      const all = yield* Effect.all(
        Array.from({ length: 12 }, () => sandboxKeys(dir)),
        { concurrency: "unbounded" }
      )
      const stored = yield* storedFile(dir)
      assert.deepStrictEqual([...new Set(all.map((k) => k.publicKey))], [stored.publicKey])
      assert.deepStrictEqual([...new Set(all.map((k) => Redacted.value(k.privateKey)))], [stored.privateKey])
      assert.deepStrictEqual(yield* Effect.promise(() => readdir(dir)), ["vapid-keys.json"])
      const mode = (yield* Effect.promise(() => stat(join(dir, "vapid-keys.json")))).mode & 0o777
      assert.strictEqual(mode, 0o600)
      // A later start reads the kept pair instead of making a new one.
      assert.strictEqual((yield* sandboxKeys(dir)).publicKey, stored.publicKey)
    }).pipe(Effect.scoped)
  )

  it.effect("a damaged key file is replaced by a fresh pair", () =>
    Effect.gen(function* () {
      const dir = yield* dataDir
      yield* Effect.promise(() => writeFile(join(dir, "vapid-keys.json"), '{"publicKey":'))
      const keys = yield* sandboxKeys(dir)
      assert.strictEqual((yield* storedFile(dir)).publicKey, keys.publicKey)
      assert.match(keys.publicKey, /^[A-Za-z0-9_-]{80,}$/)
    }).pipe(Effect.scoped)
  )

  it.effect("configured keys win; outside the sandbox nothing is generated", () =>
    Effect.gen(function* () {
      const dir = yield* dataDir
      const configured = { publicKey: "configured-public", privateKey: Redacted.make("configured-private") }
      const kept = yield* resolveVapidKeys({ configured: Option.some(configured), sandbox: true, dataDir: dir })
      assert.strictEqual(Option.getOrThrow(kept).publicKey, "configured-public")
      const none = yield* resolveVapidKeys({ configured: Option.none(), sandbox: false, dataDir: dir })
      assert.isTrue(Option.isNone(none))
      assert.deepStrictEqual(yield* Effect.promise(() => readdir(dir)), [])
    }).pipe(Effect.scoped)
  )
})
