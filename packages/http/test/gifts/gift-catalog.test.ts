import { assert, describe, it } from "@effect/vitest"
import { GiftSender, GiftSenderError, type StarGift } from "@resale/core/ports/GiftSender.ts"
import { SANDBOX_GIFTS } from "@resale/telegram/SimulatedGiftSender.ts"
import { Deferred, Effect, Fiber, Layer } from "effect"
import { TestClock } from "effect/testing"
import { ServiceUnavailable } from "../../src/api/Errors.ts"
import { toHttpError } from "../../src/handlers/ErrorMapping.ts"
import { GiftCatalog } from "@resale/webkit/GiftCatalog.ts"

const gift = (id: string, stars: number, extra: Partial<StarGift> = {}): StarGift => ({
  id,
  stars,
  title: `Gift ${stars}`,
  remaining: null,
  total: null,
  soldOut: false,
  ...extra
})

const HEART = gift("5170145012310081615", 15, { title: "Heart" })
const LIMITED = gift("5936085638515261992", 350, { title: "Plush", remaining: 12, total: 5000 })
const SOLD_OUT = gift("5936013938331222567", 500, { soldOut: true, remaining: 0, total: 3000 })
const UNTITLED = gift("5168043875654172773", 100, { title: null })

/** A GiftSender whose catalogue answers what the test says, counting the reads. */
const scripted = () => {
  const sender = {
    calls: 0,
    answer: Effect.succeed([HEART, LIMITED, SOLD_OUT, UNTITLED]) as Effect.Effect<
      ReadonlyArray<StarGift>,
      GiftSenderError
    >
  }
  const layer = Layer.succeed(GiftSender)(
    GiftSender.of({
      accounts: ["user"],
      catalogue: Effect.suspend(() => {
        sender.calls++
        return sender.answer
      }),
      send: () => Effect.die("not used"),
      findSent: () => Effect.die("not used")
    })
  )
  return { sender, layer }
}

const unavailable = Effect.fail(
  new GiftSenderError({ reason: "Unavailable", message: "Telegram could not be reached" })
)

describe("GiftCatalog over the GiftSender port", () => {
  it.effect("lists what can be ordered (not sold out), titles the untitled, finds by numeric id", () => {
    const { layer } = scripted()
    return Effect.gen(function* () {
      const catalog = yield* GiftCatalog
      const gifts = yield* catalog.list
      assert.deepStrictEqual(
        gifts.map((g) => g.id),
        [HEART.id, LIMITED.id, UNTITLED.id]
      )
      assert.deepStrictEqual(gifts[1], { id: LIMITED.id, title: "Plush", stars: 350, remaining: 12, picture: null })
      assert.strictEqual(gifts[2]?.title, `Gift ${UNTITLED.id}`)
      assert.deepStrictEqual(yield* catalog.find(` ${HEART.id} `), {
        id: HEART.id,
        title: "Heart",
        stars: 15,
        remaining: null,
        picture: null
      })
      assert.strictEqual((yield* Effect.flip(catalog.find(SOLD_OUT.id)))._tag, "GiftNotFound")
      assert.strictEqual((yield* Effect.flip(catalog.find("heart")))._tag, "GiftNotFound")
      assert.strictEqual((yield* Effect.flip(catalog.find("1")))._tag, "GiftNotFound")
    }).pipe(Effect.provide(GiftCatalog.layer.pipe(Layer.provide(layer))))
  })

  it.effect("reads the sender once per minute; a changed list shows after that", () => {
    const { layer, sender } = scripted()
    return Effect.gen(function* () {
      const catalog = yield* GiftCatalog
      yield* catalog.list
      yield* catalog.find(HEART.id)
      yield* TestClock.adjust("59 seconds")
      yield* catalog.list
      assert.strictEqual(sender.calls, 1)
      sender.answer = Effect.succeed([LIMITED])
      yield* TestClock.adjust("1 second")
      assert.deepStrictEqual(
        (yield* catalog.list).map((g) => g.id),
        [LIMITED.id]
      )
      assert.strictEqual((yield* Effect.flip(catalog.find(HEART.id)))._tag, "GiftNotFound")
      assert.strictEqual(sender.calls, 2)
    }).pipe(Effect.provide(GiftCatalog.layer.pipe(Layer.provide(layer))))
  })

  it.effect("while Telegram fails, the last list is served and asked again only every 10 seconds", () => {
    const { layer, sender } = scripted()
    return Effect.gen(function* () {
      const catalog = yield* GiftCatalog
      assert.strictEqual((yield* catalog.list).length, 3)
      sender.answer = unavailable
      yield* TestClock.adjust("2 minutes")
      assert.strictEqual((yield* catalog.list).length, 3)
      assert.strictEqual((yield* catalog.find(HEART.id)).stars, 15)
      yield* TestClock.adjust("9 seconds")
      yield* catalog.list
      assert.strictEqual(sender.calls, 2)
      sender.answer = Effect.succeed([HEART])
      yield* TestClock.adjust("1 second")
      assert.deepStrictEqual(
        (yield* catalog.list).map((g) => g.id),
        [HEART.id]
      )
      assert.strictEqual(sender.calls, 3)
    }).pipe(Effect.provide(GiftCatalog.layer.pipe(Layer.provide(layer))))
  })

  it.effect("never read: the list is empty and an order's gift cannot be checked (unavailable, not unknown)", () => {
    const { layer, sender } = scripted()
    sender.answer = unavailable
    return Effect.gen(function* () {
      const catalog = yield* GiftCatalog
      assert.deepStrictEqual(yield* catalog.list, [])
      const refused = yield* Effect.flip(catalog.find(HEART.id))
      assert.strictEqual(refused._tag, "GiftCatalogUnavailable")
      // An order then answers 503 with words, not 404 "Gift not found" nor a 500.
      const answer = toHttpError(refused)
      assert.instanceOf(answer, ServiceUnavailable)
      assert.match(answer.detail, /gift list cannot be read right now/)
    }).pipe(Effect.provide(GiftCatalog.layer.pipe(Layer.provide(layer))))
  })

  it.effect("a read that does not answer within 10 seconds counts as failed", () => {
    const { layer, sender } = scripted()
    sender.answer = Effect.never
    return Effect.gen(function* () {
      const catalog = yield* GiftCatalog
      const fiber = yield* Effect.forkChild(catalog.list)
      yield* TestClock.adjust("10 seconds")
      assert.deepStrictEqual(yield* Fiber.join(fiber), [])
    }).pipe(Effect.provide(GiftCatalog.layer.pipe(Layer.provide(layer))))
  })

  it.effect("concurrent callers of an expired list share one read", () => {
    const { layer, sender } = scripted()
    return Effect.gen(function* () {
      const gate = yield* Deferred.make<void>()
      const open = Effect.succeed([HEART])
      sender.answer = Effect.andThen(Deferred.await(gate), open)
      const catalog = yield* GiftCatalog
      const fibers = yield* Effect.forEach([1, 2, 3, 4, 5], () => Effect.forkChild(catalog.list))
      for (let i = 0; i < 20; i++) yield* Effect.yieldNow
      yield* Deferred.succeed(gate, undefined)
      const lists = yield* Effect.forEach(fibers, Fiber.join)
      assert.isTrue(lists.every((l) => l.length === 1 && l[0]?.id === HEART.id))
      assert.strictEqual(sender.calls, 1)
    }).pipe(Effect.provide(GiftCatalog.layer.pipe(Layer.provide(layer))))
  })

  it.effect("layerSandbox serves the simulator's catalogue (Telegram's standard gifts)", () =>
    Effect.gen(function* () {
      const catalog = yield* GiftCatalog
      const gifts = yield* catalog.list
      assert.deepStrictEqual(
        gifts.map((g) => [g.id, g.stars]),
        SANDBOX_GIFTS.map((g) => [g.id, g.stars])
      )
      assert.strictEqual((yield* catalog.find("5170145012310081615")).title, "Heart")
      assert.isTrue(gifts.every((g) => /^\d+$/.test(g.id)))
    }).pipe(Effect.provide(GiftCatalog.layerSandbox))
  )
})
