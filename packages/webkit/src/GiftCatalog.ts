import type { Prices } from "@resale/core"
import { Gifts } from "@resale/core/gifts/Gifts.ts"
import type * as Dto from "@resale/wire/Dtos.ts"
import type { GiftPicture } from "@resale/core/ports/GiftPictures.ts"
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
  /** The service's public address, so a picture's URL is absolute in API answers (default: a path). */
  readonly publicUrl?: string
}

// Telegram's gift ids are 64-bit integers; the spec carries them as numeric strings.
const NUMERIC_ID = /^\d{1,20}$/

/** Where the service serves a gift's picture it fetched from Telegram itself (`GiftPictureRoutes`). */
export const giftPicturePath = (id: string): string => `/v2/gift-pictures/${id}`

/**
 * A gift as the shop lists it: the sender's own picture, else the service's address of the one
 * Telegram gives (`pictured`), else none (the page draws a gift box).
 */
const toCatalogGift = (gift: StarGift, pictured: ReadonlySet<string>, base: string): CatalogGift => ({
  id: gift.id,
  title: gift.title ?? `Gift ${gift.id}`,
  stars: gift.stars,
  remaining: gift.remaining,
  picture:
    gift.picture !== undefined && gift.picture !== ""
      ? gift.picture
      : pictured.has(gift.id)
        ? `${base}${giftPicturePath(gift.id)}`
        : null
})

/** What can be ordered: on sale, with a numeric id and a positive price. */
const onSale = (
  gifts: ReadonlyArray<StarGift>,
  pictured: ReadonlySet<string>,
  base: string
): ReadonlyArray<CatalogGift> =>
  gifts.filter((g) => !g.soldOut && NUMERIC_ID.test(g.id) && g.stars > 0).map((g) => toCatalogGift(g, pictured, base))

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
export class GiftCatalog extends Context.Service<
  GiftCatalog,
  {
    /** Gifts on sale; the last list read while the GiftSender fails; empty if none was ever read. */
    readonly list: Effect.Effect<ReadonlyArray<CatalogGift>>
    readonly find: (id: string) => Effect.Effect<CatalogGift, GiftNotFound | GiftCatalogUnavailable>
    /** A gift's picture the service fetched from Telegram (served at `giftPicturePath`), if any. */
    readonly picture: (id: string) => Effect.Effect<Option.Option<GiftPicture>>
  }
>()("http/gifts/GiftCatalog") {
  static readonly make = Effect.fn("GiftCatalog.make")(function* (options: GiftCatalogOptions = {}) {
    const sender = yield* Gifts
    const ttl = Duration.toMillis(options.ttl ?? "1 minute")
    const retryAfter = Duration.toMillis(options.retryAfter ?? "10 seconds")
    const loadTimeout = options.loadTimeout ?? "10 seconds"
    const base = (options.publicUrl ?? "").replace(/\/+$/, "")
    const state = yield* Ref.make<CacheState>({ gifts: null, loadedAt: 0, failedAt: null })
    // One read at a time: concurrent callers of an expired list wait for the same read.
    const lock = yield* Semaphore.make(1)

    const load = Effect.gen(function* () {
      const read = yield* sender.catalogue.pipe(Effect.timeoutOption(loadTimeout), Effect.result)
      if (read._tag === "Success" && Option.isSome(read.success)) {
        // Pictures are a nicety: a list of them that is slow to come is skipped, the gifts are not.
        const pictured = yield* sender.pictured.pipe(
          Effect.timeoutOption(loadTimeout),
          Effect.map(Option.getOrElse(() => new Set<string>()))
        )
        return Option.some(onSale(read.success.value, pictured, base))
      }
      const why = read._tag === "Failure" ? read.failure.message : "Telegram did not answer in time"
      yield* Effect.logWarning(`gift catalogue could not be read: ${why}`)
      return Option.none<ReadonlyArray<CatalogGift>>()
    })

    const current = lock.withPermit(
      Effect.gen(function* () {
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
      })
    )

    const list = Effect.map(
      current,
      Option.getOrElse((): ReadonlyArray<CatalogGift> => [])
    ).pipe(Effect.withSpan("GiftCatalog.list"))

    const find = Effect.fn("GiftCatalog.find")(function* (id: string) {
      const giftId = id.trim()
      if (!NUMERIC_ID.test(giftId)) return yield* new GiftNotFound({ giftId: id })
      const gifts = yield* current
      if (Option.isNone(gifts)) {
        return yield* new GiftCatalogUnavailable({
          message: "The gift list cannot be read right now; try again shortly"
        })
      }
      const gift = gifts.value.find((g) => g.id === giftId)
      if (gift === undefined) return yield* new GiftNotFound({ giftId: id })
      return gift
    })

    const picture = (id: string) => (NUMERIC_ID.test(id) ? sender.picture(id) : Effect.succeedNone)

    return GiftCatalog.of({ list, find, picture })
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

/** The gift list as clients see it: each gift priced in UZS from its stars at the current star price. */
export const giftsOut = (
  gifts: ReadonlyArray<CatalogGift>,
  prices: Prices,
  sandbox: boolean
): typeof Dto.Gifts.Type => ({
  gifts: gifts.map((g) => ({
    gift_id: g.id,
    title: g.title,
    stars: g.stars,
    price_uzs: g.stars * prices.starPriceUzs,
    remaining: g.remaining,
    picture_url: g.picture
  })),
  sandbox
})
