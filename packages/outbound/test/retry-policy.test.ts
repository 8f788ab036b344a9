/**
 * The one retry policy on a scripted HttpClient, on the TestClock: what is retried (429 always;
 * no answer, timeouts, 408 and 5xx only for repeatable requests), how long it waits (backoff, at
 * least Retry-After, nothing beyond `longestWait`) and per-attempt timeouts.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Fiber, Ref } from "effect"
import { HttpClient, HttpClientError, HttpClientRequest, HttpClientResponse } from "effect/http"
import { TestClock } from "effect/testing"
import { DEFAULT_POLICY, type RetryPolicy, withRetryPolicy } from "../src/RetryPolicy.ts"

type Step = { readonly status: number; readonly headers?: Record<string, string> } | "no answer" | "hang"

/** A client that answers the scripted steps in order (the last one repeats) and counts attempts. */
const scripted = (steps: ReadonlyArray<Step>) =>
  Effect.gen(function* () {
    const attempts = yield* Ref.make(0)
    const client = HttpClient.make((request) =>
      Effect.gen(function* () {
        const n = yield* Ref.getAndUpdate(attempts, (k) => k + 1)
        const step = steps[Math.min(n, steps.length - 1)]!
        if (step === "hang") return yield* Effect.never
        if (step === "no answer") {
          return yield* new HttpClientError.HttpClientError({ reason: new HttpClientError.TransportError({ request }) })
        }
        return HttpClientResponse.fromWeb(
          request,
          new Response("{}", { status: step.status, headers: step.headers ?? {} })
        )
      })
    )
    return { client, attempts: Ref.get(attempts) }
  })

const policy = (overrides: Partial<RetryPolicy> = {}): RetryPolicy => ({
  ...DEFAULT_POLICY,
  firstDelay: "1 second",
  attemptTimeout: "10 seconds",
  ...overrides
})

const request = HttpClientRequest.post("http://outside.test/call")

/** Starts the call, then moves the TestClock by `seconds` one second at a time. */
const run = (client: HttpClient.HttpClient, seconds: number) =>
  Effect.gen(function* () {
    const fiber = yield* Effect.forkChild(Effect.result(client.execute(request)))
    for (let s = 0; s < seconds; s++) yield* TestClock.adjust("1 second")
    return fiber
  })

describe("the one retry policy", () => {
  it.effect("429 waits at least Retry-After, for any request", () =>
    Effect.gen(function* () {
      const { client, attempts } = yield* scripted([{ status: 429, headers: { "retry-after": "5" } }, { status: 200 }])
      const fiber = yield* run(withRetryPolicy(policy({ repeatable: false }))(client), 4)
      assert.strictEqual(yield* attempts, 1) // the backoff alone (about 1 s) has passed, Retry-After not
      yield* TestClock.adjust("2 seconds")
      const result = yield* Fiber.join(fiber)
      assert.strictEqual(yield* attempts, 2)
      assert.strictEqual(result._tag === "Success" ? result.success.status : 0, 200)
    })
  )

  it.effect("a Retry-After beyond longestWait ends the retries: the caller gets the 429", () =>
    Effect.gen(function* () {
      const { client, attempts } = yield* scripted([
        { status: 429, headers: { "retry-after": "120" } },
        { status: 200 }
      ])
      const result = yield* Effect.result(withRetryPolicy(policy())(client).execute(request))
      assert.strictEqual(yield* attempts, 1)
      assert.strictEqual(result._tag === "Success" ? result.success.status : 0, 429)
    })
  )

  it.effect("a request that is not repeatable is not retried after 5xx or no answer", () =>
    Effect.gen(function* () {
      const fiveHundred = yield* scripted([{ status: 503 }, { status: 200 }])
      const answered = yield* Effect.result(
        withRetryPolicy(policy({ repeatable: false }))(fiveHundred.client).execute(request)
      )
      assert.strictEqual(answered._tag === "Success" ? answered.success.status : 0, 503)
      assert.strictEqual(yield* fiveHundred.attempts, 1)
      const silent = yield* scripted(["no answer", { status: 200 }])
      const failed = yield* Effect.result(
        withRetryPolicy(policy({ repeatable: false }))(silent.client).execute(request)
      )
      assert.strictEqual(failed._tag, "Failure")
      assert.strictEqual(yield* silent.attempts, 1)
    })
  )

  it.effect("a repeatable request is retried after 5xx and no answer, `times` times at most", () =>
    Effect.gen(function* () {
      const { client, attempts } = yield* scripted([{ status: 502 }, "no answer", { status: 503 }, { status: 200 }])
      const fiber = yield* run(withRetryPolicy(policy({ times: 2 }))(client), 10)
      const result = yield* Fiber.join(fiber)
      assert.strictEqual(yield* attempts, 3)
      // the retries are spent: the last answer is the caller's to read
      assert.strictEqual(result._tag === "Success" ? result.success.status : 0, 503)
    })
  )

  it.effect("each attempt is bounded: a hang is a TransportError after attemptTimeout, retried if repeatable", () =>
    Effect.gen(function* () {
      const { client, attempts } = yield* scripted(["hang", { status: 200 }])
      const once = yield* scripted(["hang"])
      const retried = yield* run(withRetryPolicy(policy({ attemptTimeout: "3 seconds" }))(client), 10)
      const notRetried = yield* run(
        withRetryPolicy(policy({ attemptTimeout: "3 seconds", repeatable: false }))(once.client),
        10
      )
      const ok = yield* Fiber.join(retried)
      const failed = yield* Fiber.join(notRetried)
      assert.strictEqual(ok._tag === "Success" ? ok.success.status : 0, 200)
      assert.strictEqual(yield* attempts, 2)
      assert.strictEqual(yield* once.attempts, 1)
      assert.strictEqual(failed._tag === "Failure" ? failed.failure.reason._tag : "", "TransportError")
    })
  )

  it.effect("repeatOn connection: only a lost connection is retried, not 5xx, 408 or a timeout; 429 still is", () =>
    Effect.gen(function* () {
      const onConnection = policy({ repeatOn: "connection", times: 1, attemptTimeout: "3 seconds" })
      const dropped = yield* scripted(["no answer", { status: 200 }])
      const again = yield* Fiber.join(yield* run(withRetryPolicy(onConnection)(dropped.client), 5))
      assert.strictEqual(again._tag === "Success" ? again.success.status : 0, 200)
      assert.strictEqual(yield* dropped.attempts, 2)
      for (const status of [500, 503, 408]) {
        const failing = yield* scripted([{ status }, { status: 200 }])
        const answered = yield* Fiber.join(yield* run(withRetryPolicy(onConnection)(failing.client), 5))
        assert.strictEqual(answered._tag === "Success" ? answered.success.status : 0, status)
        assert.strictEqual(yield* failing.attempts, 1, `${status} is not retried`)
      }
      const slow = yield* scripted(["hang", { status: 200 }])
      const timedOut = yield* Fiber.join(yield* run(withRetryPolicy(onConnection)(slow.client), 10))
      assert.strictEqual(timedOut._tag === "Failure" ? timedOut.failure.reason._tag : "", "TransportError")
      assert.strictEqual(yield* slow.attempts, 1, "a timeout is not retried")
      const limited = yield* scripted([{ status: 429 }, { status: 200 }])
      const after429 = yield* Fiber.join(yield* run(withRetryPolicy(onConnection)(limited.client), 5))
      assert.strictEqual(after429._tag === "Success" ? after429.success.status : 0, 200)
      assert.strictEqual(yield* limited.attempts, 2)
    })
  )
})
