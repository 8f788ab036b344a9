/**
 * The simulated Telegram's history is the data directory's, not a process's: a gift one sender sent
 * is found by another sender on the same log file (as two workers of one DATA_DIR), numbered after
 * it, and a torn line left by a crash mid-append neither hides nor swallows the next gift.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { GIFT_MAGIC, makeSimulatedGiftSender, SANDBOX_GIFTS } from "../src/SimulatedGiftSender.ts"

const request = (recipient: string) => ({
  account: null,
  recipient,
  giftId: SANDBOX_GIFTS[0]!.id,
  message: null,
  anonymous: false
})

const tempLog = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "resale-gifts-"))),
  (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
).pipe(Effect.map((dir) => join(dir, "sandbox-gifts.jsonl")))

const lines = (file: string) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")

describe("the sent-gift log shared by the processes of a data directory", () => {
  it.effect("a gift sent by one sender is found by another started before it, and numbered after it", () =>
    Effect.gen(function* () {
      const logFile = yield* tempLog
      const a = yield* makeSimulatedGiftSender({ accounts: ["user"], logFile, magic: true })
      const b = yield* makeSimulatedGiftSender({ accounts: ["user"], logFile, magic: true })
      const since = new Date(0)
      assert.isTrue(Option.isNone(yield* b.service.findSent(request("fleet_fan"), since)))
      // The answer is lost: only the history can tell b that a sent it.
      assert.strictEqual((yield* Effect.flip(a.service.send(request(GIFT_MAGIC.lost)))).reason, "Timeout")
      const found = yield* b.service.findSent(request(GIFT_MAGIC.lost), since)
      assert.strictEqual(Option.getOrThrow(found).reference, "sim-gift-1")
      const next = yield* b.service.send(request("fleet_fan"))
      assert.strictEqual(next.reference, "sim-gift-2")
      assert.isTrue(Option.isSome(yield* a.service.findSent(request("fleet_fan"), since)))
      assert.strictEqual(lines(logFile).length, 2)
    }).pipe(Effect.scoped)
  )

  it.effect("a torn last line is closed before the next gift is appended", () =>
    Effect.gen(function* () {
      const logFile = yield* tempLog
      const sender = yield* makeSimulatedGiftSender({ accounts: ["user"], logFile })
      yield* sender.service.send(request("first_fan"))
      appendFileSync(logFile, '{"account":"user","recipi')
      yield* sender.service.send(request("second_fan"))
      const found = yield* sender.service.findSent(request("second_fan"), new Date(0))
      assert.isTrue(Option.isSome(found))
      assert.strictEqual(lines(logFile).length, 3)
    }).pipe(Effect.scoped)
  )
})
