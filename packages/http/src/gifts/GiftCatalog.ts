import { Gifts } from "@resale/core/gifts/Gifts.ts"
import type { GiftSender, StarGift } from "@resale/core/ports/GiftSender.ts"
import { SimulatedGiftSender } from "@resale/telegram/SimulatedGiftSender.ts"
import { Clock, Context, Duration, Effect, Layer, Option, Ref, Schema, Semaphore } from "effect"

/** A star gift that can be sent: its id (a numeric string) and price in stars. */
export interface CatalogGift {
  readonly id: string
  readonly title: string
  readonly stars: number
  readonly remaining: number | null
  /** the sender's picture of it (https or data: URL), null when it gives none */
  readonly picture: string | null
}

export class GiftNotFound extends Schema.TaggedError<GiftNotFound>()("GiftNotFound", { giftId: Schema.String }) {}

/** The gift list could not be read from Telegram and none was read before: nothing to check an order against. */
export class GiftCatalogUnavailable extends Schema.TaggedError<GiftCatalogUnavailable>()("GiftCatalogUnavailable", {
  message: Schema.String
}) {}

export interface GiftCatalogOptions {
  /** How long a list read from the GiftSender is served before it is read again (default 1 minute). */
  readonly ttl?: Duration.Input
  /** After a failed read, how long the previous list is served before the next try (default 10 seconds). */
  readonly retryAfter?: Duration.Input
  /** A read that takes longer counts as failed (default 10 seconds). */
  readonly loadTimeout?: Duration.Input
}

// Telegram's gift ids are 64-bit integers; the spec carries them as numeric strings.
const NUMERIC_ID = /^\d{1,20}$/

const toCatalogGift = (gift: StarGift): CatalogGift => ({
  id: gift.id,
  title: gift.title ?? `Gift ${gift.id}`,
  stars: gift.stars,
  remaining: gift.remaining,
  picture: gift.picture === undefined || gift.picture === "" ? null : gift.picture
})

/** What can be ordered: on sale, with a numeric id and a positive price. */
const onSale = (gifts: ReadonlyArray<StarGift>): ReadonlyArray<CatalogGift> =>
  gifts.filter((g) => !g.soldOut && NUMERIC_ID.test(g.id) && g.stars > 0).map(toCatalogGift)

interface CacheState {
  readonly gifts: ReadonlyArray<CatalogGift> | null
  readonly loadedAt: number
  readonly failedAt: number | null
}

/**
 * The star gifts that can be ordered, read from the GiftSender port's `catalogue` (the simulator's
 * list in sandbox mode, Telegram's through mtcute in production) and kept for a short while. When
 * Telegram cannot be reached the last list read is served, so a short outage does not empty the shop.
 */
export class GiftCatalog extends Context.Service<GiftCatalog, {
  /** Gifts on sale; the last list read while the GiftSender fails; empty if none was ever read. */
  readonly list: Effect.Effect<ReadonlyArray<CatalogGift>>
  readonly find: (id: string) => Effect.Effect<CatalogGift, GiftNotFound | GiftCatalogUnavailable>
}>()("http/gifts/GiftCatalog") {
  static readonly make = Effect.fn("GiftCatalog.make")(function*(options: GiftCatalogOptions = {}) {
    const sender = yield* Gifts
    const ttl = Duration.toMillis(options.ttl ?? "1 minute")
    const retryAfter = Duration.toMillis(options.retryAfter ?? "10 seconds")
    const loadTimeout = options.loadTimeout ?? "10 seconds"
    const state = yield* Ref.make<CacheState>({ gifts: null, loadedAt: 0, failedAt: null })
    // One read at a time: concurrent callers of an expired list wait for the same read.
    const lock = yield* Semaphore.make(1)

    const load = Effect.gen(function*() {
      const read = yield* sender.catalogue.pipe(Effect.timeoutOption(loadTimeout), Effect.result)
      if (read._tag === "Success" && Option.isSome(read.success)) return Option.some(onSale(read.success.value))
      const why = read._tag === "Failure" ? read.failure.message : "Telegram did not answer in time"
      yield* Effect.logWarning(`gift catalogue could not be read: ${why}`)
      return Option.none<ReadonlyArray<CatalogGift>>()
    })

    const current = lock.withPermit(Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      const cached = yield* Ref.get(state)
      const fresh = cached.gifts !== null && now - cached.loadedAt < ttl
      const waiting = cached.failedAt !== null && now - cached.failedAt < retryAfter
      if (fresh || waiting) return Option.fromNullishOr(cached.gifts)
      const loaded = yield* load
      if (Option.isSome(loaded)) {
        yield* Ref.set(state, { gifts: loaded.value, loadedAt: now, failedAt: null })
        return loaded
      }
      yield* Ref.set(state, { ...cached, failedAt: now })
      return Option.fromNullishOr(cached.gifts)
    }))

    const list = Effect.map(current, Option.getOrElse((): ReadonlyArray<CatalogGift> => [])).pipe(
      Effect.withSpan("GiftCatalog.list")
    )

    const find = Effect.fn("GiftCatalog.find")(function*(id: string) {
      const giftId = id.trim()
      if (!NUMERIC_ID.test(giftId)) return yield* new GiftNotFound({ giftId: id })
      const gifts = yield* current
      if (Option.isNone(gifts)) {
        return yield* new GiftCatalogUnavailable({ message: "The gift list cannot be read right now; try again shortly" })
      }
      const gift = gifts.value.find((g) => g.id === giftId)
      if (gift === undefined) return yield* new GiftNotFound({ giftId: id })
      return gift
    })

    return GiftCatalog.of({ list, find })
  })

  /** Backed by the GiftSender the composition root provides. */
  static readonly layerWith = (options: GiftCatalogOptions): Layer.Layer<GiftCatalog, never, GiftSender> =>
    Layer.effect(GiftCatalog, GiftCatalog.make(options)).pipe(Layer.provide(Gifts.layer))
  static readonly layer: Layer.Layer<GiftCatalog, never, GiftSender> = GiftCatalog.layerWith({})

  /** Over the sandbox's simulated sender (Telegram's standard gifts), for tests and tools without a GiftSender. */
  static readonly layerSandbox: Layer.Layer<GiftCatalog> = GiftCatalog.layer.pipe(
    Layer.provide(SimulatedGiftSender.layer({ accounts: ["user"] }))
  )
}
