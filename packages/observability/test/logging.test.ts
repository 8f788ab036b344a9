import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Logger, Redacted, References } from "effect"
import { logInContext, makeJsonLogger, makePrettyLogger } from "../src/Logging.ts"
import { registerEnvironmentSecrets } from "../src/LogRedaction.ts"

const ADMIN_TOKEN = "adm-7f3c9a1e5b2d4c6a8e0f"
const API_KEY = `rk_${"Qw3rTy7uIoP1aSdFgHjKl0zXcVbNm9_-2345678901"}`
const MNEMONIC = "abandon ability able about above absent absorb abstract absurd abuse access accident"

/** The lines `effect` writes through a JSON logger at `level`, parsed. */
const jsonLines = <A, E>(effect: Effect.Effect<A, E>, level: "Info" | "Debug" = "Info") => {
  const lines: Array<string> = []
  return effect.pipe(
    Effect.provide(
      Layer.mergeAll(
        Logger.layer([makeJsonLogger((line) => lines.push(line))]),
        Layer.succeed(References.MinimumLogLevel, level)
      )
    ),
    Effect.as(lines)
  )
}

describe("JSON logs", () => {
  it.effect("one object per line with time (ISO, zone), level, message and annotations as snake_case fields", () =>
    Effect.gen(function* () {
      const lines = yield* jsonLines(
        Effect.logInfo("order paid").pipe(Effect.annotateLogs({ orderId: 42, userId: 7, request_id: "req-1" }))
      )
      assert.strictEqual(lines.length, 1)
      const line = JSON.parse(lines[0]!) as Record<string, unknown>
      assert.match(String(line["time"]), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
      assert.strictEqual(line["level"], "info")
      assert.strictEqual(line["message"], "order paid")
      assert.strictEqual(line["order_id"], 42)
      assert.strictEqual(line["user_id"], 7)
      assert.strictEqual(line["request_id"], "req-1")
    })
  )

  it.effect("an error's cause is one field of the same line", () =>
    Effect.gen(function* () {
      const lines = yield* jsonLines(Effect.logError("payment failed", new Error("timeout")))
      assert.strictEqual(lines.length, 1)
      const line = JSON.parse(lines[0]!) as Record<string, unknown>
      assert.strictEqual(line["level"], "error")
      assert.include(String(line["message"]), "payment failed")
    })
  )

  it.effect("the minimum level filters lower lines", () =>
    Effect.gen(function* () {
      const lines = yield* jsonLines(Effect.all([Effect.logDebug("noise"), Effect.logWarning("kept")]))
      assert.deepStrictEqual(
        lines.map((l) => (JSON.parse(l) as { message: string }).message),
        ["kept"]
      )
    })
  )

  it.effect("secrets never reach a line: admin token, API key, mnemonic, Redacted values", () =>
    Effect.gen(function* () {
      registerEnvironmentSecrets({ ADMIN_TOKEN, DATABASE_URL: "postgres://app:pg-pass-9876@db/resale" })
      const lines = yield* jsonLines(
        Effect.all([
          Effect.logWarning(`login refused for ${ADMIN_TOKEN}`),
          Effect.logInfo("key made").pipe(
            Effect.annotateLogs({ key: API_KEY, token: Redacted.make("raw-secret-value") })
          ),
          Effect.logInfo("direct order").pipe(Effect.annotateLogs({ username: MNEMONIC })),
          Effect.logError("connect failed: password pg-pass-9876 rejected")
        ])
      )
      const text = lines.join("\n")
      for (const secret of [ADMIN_TOKEN, API_KEY, "raw-secret-value", "pg-pass-9876", "abandon ability able"]) {
        assert.notInclude(text, secret)
      }
      for (const line of lines) JSON.parse(line)
      assert.include(text, "<MNEMONIC_PHRASE>")
    })
  )

  it.effect("pretty lines are single lines with key=value fields", () =>
    Effect.gen(function* () {
      const lines: Array<string> = []
      yield* Effect.logInfo("started").pipe(
        Effect.annotateLogs({ orderId: 5, note: "two words" }),
        Effect.provide(Logger.layer([makePrettyLogger((line) => lines.push(line))]))
      )
      assert.strictEqual(lines.length, 1)
      assert.match(lines[0]!, /^\S+Z INFO +started order_id=5 note="two words"$/)
    })
  )
})

describe("logging without an effect (logInContext)", () => {
  const both = (level: "Info" | "Debug", minimum: "Info" | "Debug", logger: "json" | "pretty") =>
    Effect.gen(function* () {
      const lines: Array<string> = []
      const make = logger === "json" ? makeJsonLogger : makePrettyLogger
      const fields = {
        request_id: "r-1",
        method: "GET",
        route: "/v2/api/orders/:id",
        status: 200,
        duration_ms: 1.5,
        client: null,
        note: API_KEY
      }
      const run = Effect.gen(function* () {
        yield* Effect.logWithLevel(level)("GET /v2/api/orders/7 200").pipe(Effect.annotateLogs(fields))
        const context = yield* Effect.context<never>()
        return logInContext(context, level, "GET /v2/api/orders/7 200", fields)
      }).pipe(
        Effect.annotateLogs("process", "server"),
        Effect.withLogSpan("request"),
        Effect.provide(
          Layer.mergeAll(
            Logger.layer([make((line) => lines.push(line))]),
            Layer.succeed(References.MinimumLogLevel, minimum)
          )
        )
      )
      const logged = yield* run
      return { logged, lines }
    })

  it.effect("writes the line the effect writes: fields, their order, spans, scrubbing (JSON and pretty)", () =>
    Effect.gen(function* () {
      for (const format of ["json", "pretty"] as const) {
        const { lines, logged } = yield* both("Info", "Info", format)
        assert.isTrue(logged)
        assert.strictEqual(lines.length, 2)
        const [viaEffect, direct] = lines.map((line) =>
          line.replace(/^\S+|"time":"[^"]+"/, "T").replace(/request_ms[=":]+\d+/, "S")
        )
        assert.strictEqual(direct, viaEffect)
        assert.include(direct!, "<redacted>")
        assert.notInclude(direct!, API_KEY)
      }
    })
  )

  it.effect("writes the effect's JSON line when keys repeat, clash with the line's own or are indices", () =>
    Effect.gen(function* () {
      const lines: Array<string> = []
      const odd = {
        orderId: 1,
        order_id: 2,
        "7": "x",
        level: "mine",
        note: undefined,
        when: new Date(0),
        big: 5n,
        list: ["a", API_KEY]
      }
      const logged = yield* Effect.gen(function* () {
        yield* Effect.log("odd").pipe(Effect.annotateLogs(odd))
        return logInContext(yield* Effect.context<never>(), "Info", "odd", odd)
      }).pipe(
        Effect.annotateLogs({ process: "server", order_id: 0 }),
        Effect.provide(Logger.layer([makeJsonLogger((line) => lines.push(line))]))
      )
      assert.isTrue(logged)
      const [viaEffect, direct] = lines.map((line) => line.replace(/"time":"[^"]+"/, "T"))
      assert.strictEqual(direct, viaEffect)
      assert.notInclude(direct!, API_KEY)
    })
  )

  it.effect("keeps to the minimum level, and leaves other loggers to effect", () =>
    Effect.gen(function* () {
      const { lines, logged } = yield* both("Debug", "Info", "json")
      assert.isTrue(logged)
      assert.strictEqual(lines.length, 0)
      const foreign = yield* Effect.gen(function* () {
        return logInContext(yield* Effect.context<never>(), "Info", "x", {})
      }).pipe(Effect.provide(Logger.layer([Logger.make(() => undefined)])))
      assert.isFalse(foreign)
    })
  )
})
