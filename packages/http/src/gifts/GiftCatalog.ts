import { Context, Effect, Layer, Schema } from "effect"

/** A star gift that can be sent: its id (a numeric string) and price in stars. */
export interface CatalogGift {
  readonly id: string
  readonly title: string
  readonly stars: number
  readonly remaining: number | null
}

export class GiftNotFound extends Schema.TaggedError<GiftNotFound>()("GiftNotFound", { giftId: Schema.String }) {}

/**
 * The list of available star gifts. No core port covers the catalogue yet, so the http package
 * carries this small one; the sandbox layer serves Telegram's standard gifts.
 */
export class GiftCatalog extends Context.Service<GiftCatalog, {
  readonly list: Effect.Effect<ReadonlyArray<CatalogGift>>
  readonly find: (id: string) => Effect.Effect<CatalogGift, GiftNotFound>
}>()("http/gifts/GiftCatalog") {
  static readonly fromList = (gifts: ReadonlyArray<CatalogGift>) =>
    Layer.succeed(GiftCatalog)(GiftCatalog.of({
      list: Effect.succeed(gifts),
      find: (id) => {
        const gift = gifts.find((g) => g.id === id.trim())
        return gift ? Effect.succeed(gift) : Effect.fail(new GiftNotFound({ giftId: id }))
      }
    }))

  static readonly layerSandbox = GiftCatalog.fromList([
    { id: "5170145012310081615", title: "Heart", stars: 15, remaining: null },
    { id: "5170233102089322756", title: "Teddy bear", stars: 15, remaining: null },
    { id: "5170250947678437525", title: "Gift box", stars: 25, remaining: null },
    { id: "5168103777563050263", title: "Rose", stars: 25, remaining: null },
    { id: "5170144170496491616", title: "Cake", stars: 50, remaining: null },
    { id: "5170314324215857265", title: "Bouquet", stars: 50, remaining: null },
    { id: "5170564780938756245", title: "Rocket", stars: 50, remaining: null },
    { id: "5168043875654172773", title: "Trophy", stars: 100, remaining: null },
    { id: "5170690322832818290", title: "Ring", stars: 100, remaining: null },
    { id: "5170521118301225164", title: "Diamond", stars: 100, remaining: null }
  ])
}
