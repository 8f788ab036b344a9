import { assert, describe, it } from "@effect/vitest"
import type { GiftRequest } from "@resale/core/ports/GiftSender.ts"
import { Effect, Option } from "effect"
import { createRequire } from "node:module"
import { makeMtcuteGiftSender } from "../src/MtcuteGiftSender.ts"
import { FakeTelegram } from "./support/FakeTelegram.ts"

const HEART = { id: "5170145012310081615", stars: 15, title: "Heart" }
const LIMITED = { id: "5782984811920491178", stars: 350, title: "Hat", remains: 12, total: 1000 }
const GONE = { id: "5782988952269162874", stars: 500, soldOut: true, remains: 0, total: 500 }

const setup = Effect.gen(function* () {
  const telegram = new FakeTelegram([HEART, LIMITED, GONE])
  telegram.addUser("alice_gifts")
  const user = yield* Effect.promise(() => telegram.client())
  const girl = yield* Effect.promise(() => telegram.client())
  const sender = yield* makeMtcuteGiftSender({
    accounts: [
      { name: "user", client: user },
      { name: "girl", client: girl }
    ]
  })
  return { telegram, sender }
})

const request = (overrides: Partial<GiftRequest> = {}): GiftRequest => ({
  account: null,
  recipient: "alice_gifts",
  giftId: HEART.id,
  message: "for you",
  anonymous: false,
  ...overrides
})

describe("MtcuteGiftSender (mtcute's TelegramClient, Telegram faked at the TL call level)", () => {
  it.live("sends a star gift to a username through getPaymentForm + sendStarsForm", () =>
    Effect.gen(function* () {
      const { sender, telegram } = yield* setup
      assert.deepStrictEqual(sender.accounts, ["user", "girl"])
      const sent = yield* sender.send(request({ account: "girl", anonymous: true, message: "happy birthday" }))
      assert.strictEqual(sent.account, "girl")
      assert.deepStrictEqual(telegram.calls, [
        "contacts.resolveUsername",
        "payments.getPaymentForm",
        "payments.sendStarsForm"
      ])
      assert.deepStrictEqual(
        telegram.sent.map((s) => [s.giftId, s.message, s.hideName]),
        [[HEART.id, "happy birthday", true]]
      )
      assert.strictEqual(telegram.stars, 10_000 - HEART.stars)
    })
  )

  it.live("the catalogue: numeric-string ids, star prices, limited and sold-out gifts; cached", () =>
    Effect.gen(function* () {
      const { sender, telegram } = yield* setup
      const gifts = yield* sender.catalogue
      assert.deepStrictEqual(gifts, [
        { id: HEART.id, stars: 15, title: "Heart", remaining: null, total: null, soldOut: false },
        { id: LIMITED.id, stars: 350, title: "Hat", remaining: 12, total: 1000, soldOut: false },
        { id: GONE.id, stars: 500, title: null, remaining: 0, total: 500, soldOut: true }
      ])
      yield* sender.catalogue
      assert.strictEqual(telegram.calls.filter((c) => c === "payments.getStarGifts").length, 1)
    })
  )

  it.live("maps Telegram's refusals: unknown user, sold out, no Stars, flood wait, unknown account", () =>
    Effect.gen(function* () {
      const { sender, telegram } = yield* setup
      const reason = (r: GiftRequest) => Effect.map(Effect.flip(sender.send(r)), (e) => e.reason)
      assert.strictEqual(yield* reason(request({ recipient: "nobody_there" })), "RecipientNotFound")
      assert.strictEqual(yield* reason(request({ giftId: GONE.id })), "GiftUnavailable")
      assert.strictEqual(yield* reason(request({ account: "boss" })), "UnknownAccount")
      telegram.stars = 1
      assert.strictEqual(yield* reason(request()), "InsufficientStars")
      telegram.stars = 10_000
      telegram.sendFaults.push({ code: 420, text: "FLOOD_WAIT_30" })
      assert.strictEqual(yield* reason(request()), "FloodWait")
      telegram.sendFaults.push({ code: 403, text: "USER_PRIVACY_RESTRICTED" })
      assert.strictEqual(yield* reason(request()), "Rejected")
      assert.strictEqual(telegram.sent.length, 0)
    })
  )

  it.live("a lost answer is Timeout (outcome unknown); findSent then finds the gift in the history", () =>
    Effect.gen(function* () {
      const { sender, telegram } = yield* setup
      const before = new Date(Date.now() - 1000)
      assert.isTrue(Option.isNone(yield* sender.findSent(request(), before)))
      telegram.sendFaults.push("lose")
      const lost = yield* Effect.flip(sender.send(request()))
      assert.strictEqual(lost.reason, "Timeout")
      assert.strictEqual(telegram.sent.length, 1)
      const found = yield* sender.findSent(request(), before)
      assert.isTrue(Option.isSome(found))
      assert.strictEqual(Option.getOrThrow(found).reference, `msg:${telegram.sent[0]!.messageId}`)
      // Another gift id, or a send older than `since`, is not this one.
      assert.isTrue(Option.isNone(yield* sender.findSent(request({ giftId: LIMITED.id }), before)))
      assert.isTrue(Option.isNone(yield* sender.findSent(request(), new Date(Date.now() + 60_000))))
    })
  )

  it.live("never loads better-sqlite3's native addon (in-memory storage)", () =>
    Effect.gen(function* () {
      yield* setup
      const require = createRequire(import.meta.url)
      const native = Object.keys(require.cache).filter((path) => path.endsWith(".node"))
      assert.deepStrictEqual(
        native.filter((path) => path.includes("sqlite")),
        []
      )
    })
  )
})
