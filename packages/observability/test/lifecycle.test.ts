import { assert, describe, it } from "@effect/vitest"
import { Data } from "effect"
import { messageOf } from "../src/Lifecycle.ts"

class Wrapped extends Data.TaggedError("Wrapped")<{ readonly cause: unknown }> {}
class Told extends Data.TaggedError("Told")<{ readonly message: string }> {}

describe("the error a process stopped on, as its last line says it", () => {
  it("an error's own message", () => {
    assert.strictEqual(
      messageOf(new Told({ message: "cannot listen on 127.0.0.1:80" })),
      "cannot listen on 127.0.0.1:80"
    )
    assert.strictEqual(messageOf("plain text"), "plain text")
  })

  it("a tagged error without a message: its tag and what it wraps (effect's ServeError said only its tag)", () => {
    const listen = Object.assign(new Error("listen EADDRINUSE: address already in use 127.0.0.1:3000"), {
      code: "EADDRINUSE"
    })
    assert.strictEqual(
      messageOf(new Wrapped({ cause: listen })),
      "Wrapped: listen EADDRINUSE: address already in use 127.0.0.1:3000"
    )
    assert.strictEqual(
      messageOf(new Wrapped({ cause: new Wrapped({ cause: "deepest" }) })),
      "Wrapped: Wrapped: deepest"
    )
    assert.strictEqual(messageOf(new Wrapped({ cause: undefined })), "Wrapped")
  })

  it("a chain of causes that loops back ends after a few, instead of overflowing the stack", () => {
    const first = new Wrapped({ cause: undefined })
    const second = new Wrapped({ cause: first })
    ;(first as { cause: unknown }).cause = second
    assert.strictEqual(messageOf(first), "Wrapped: Wrapped: Wrapped: Wrapped: Wrapped: Wrapped")
  })
})
